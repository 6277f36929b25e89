#include "kessel/text/tokenize.h"

#include <algorithm>
#include <unordered_set>

#include "kessel/text/lexicon.h"
#include "text/emoticon_index.h"

namespace kessel::text {

namespace {

bool is_alnum(char32_t c) { return is_latin_letter(c) || is_digit(c); }

bool starts_with_ascii(const char32_t* cps, std::size_t n, std::string_view s) {
  if (s.size() > n) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (fold_case(cps[i]) != static_cast<char32_t>(s[i])) return false;
  }
  return true;
}

// True when `last` is an opening bracket that text after it closes, or that CJK text follows at
// once: "订单号:[订单编号]" and "note:(see below)" hold a colon and a bracket group, not the emoticons
// ":[" and ":(".
bool opens_bracket_group(char32_t last, const char32_t* cps, std::size_t n, std::size_t after) {
  char32_t close = 0;
  if (last == '[') close = ']';
  else if (last == '(') close = ')';
  else if (last == 0x3010) close = 0x3011;
  if (close == 0 || after >= n || is_space(cps[after]) || cps[after] == close) return false;
  // "税号:[数字" (CSDS cuts utterances at 30 characters): a bracket that CJK text follows at once is
  // a bracket even when the cut took its closing half.
  if (is_cjk(cps[after])) return true;
  for (std::size_t j = after; j < n && j < after + 12; ++j) {
    if (cps[j] == '\n' || cps[j] == last) return false;
    if (cps[j] == close) return true;
  }
  return false;
}

// ":[" or ":]" right after a CJK character is a field label's colon and a bracket, not an emoticon:
// CSDS's system lines end "信息发送:[订单编号:[" where the cut took the slot, and "下单时间:]"; Chinese
// chat writes its emoticons with round brackets or as emoji.
bool is_label_bracket(const char32_t* cps, std::size_t i, std::size_t len) {
  return len == 2 && i > 0 && cps[i] == ':' && (cps[i + 1] == '[' || cps[i + 1] == ']') && is_cjk(cps[i - 1]);
}

// Length of a built-in emoticon at cps[i] that respects the boundary rule, 0 when none.
std::size_t emoticon_length(const char32_t* cps, std::size_t n, std::size_t i) {
  static const EmoticonIndex emoticons(builtin_emoticons());
  for (const auto& e : emoticons.candidates(cps[i])) {
    if (e.size() > n - i) continue;
    if (!std::equal(e.begin(), e.end(), cps + i)) continue;
    if (is_alnum(e.front()) && i > 0 && is_alnum(cps[i - 1])) continue;
    if (is_alnum(e.back()) && i + e.size() < n && is_alnum(cps[i + e.size()])) continue;
    if (opens_bracket_group(e.back(), cps, n, i + e.size())) continue;
    if (is_label_bracket(cps, i, e.size())) continue;
    return e.size();
  }
  return 0;
}

std::size_t word_length(const char32_t* cps, std::size_t n, std::size_t i) {
  if (!is_latin_letter(cps[i])) return 0;
  std::size_t j = i + 1;
  while (j < n) {
    const char32_t c = cps[j];
    // A variation selector after a letter selects nothing ("I\uFE0F have", "I\uFE0Ft takes" as some
    // keyboards write them): it stays in the word, whose lower form drops it (normalize_term), so "I"
    // is still the pronoun and "It" one word.
    if (is_latin_letter(c) || is_digit(c) || is_variation_selector(c)) {
      ++j;
    } else if ((c == '\'' || c == 0x2019 || c == '-') && j + 1 < n && is_latin_letter(cps[j + 1])) {
      j += 2;
    } else {
      break;
    }
  }
  return j - i;
}

std::size_t number_length(const char32_t* cps, std::size_t n, std::size_t i) {
  if (!is_digit(cps[i])) return 0;
  std::size_t j = i + 1;
  while (j < n) {
    if (is_digit(cps[j])) {
      ++j;
    } else if ((cps[j] == '.' || cps[j] == ',' || cps[j] == ':' || cps[j] == '/') && j + 1 < n &&
               is_digit(cps[j + 1])) {
      j += 2;
    } else {
      break;
    }
  }
  return j - i;
}

std::size_t url_length(const char32_t* cps, std::size_t n, std::size_t i) {
  if (!starts_with_ascii(cps + i, n - i, "http://") &&
      !starts_with_ascii(cps + i, n - i, "https://") &&
      !starts_with_ascii(cps + i, n - i, "www.")) {
    return 0;
  }
  if (i > 0 && is_alnum(cps[i - 1])) return 0;
  std::size_t j = i;
  while (j < n && !is_space(cps[j]) && !is_cjk(cps[j]) && cps[j] < 0x3000) ++j;
  // A sentence-final period or closing bracket usually belongs to the text, not the link.
  while (j > i && (cps[j - 1] == '.' || cps[j - 1] == ',' || cps[j - 1] == ')' ||
                   cps[j - 1] == '!' || cps[j - 1] == '?')) {
    --j;
  }
  return j - i;
}

std::size_t handle_length(const char32_t* cps, std::size_t n, std::size_t i) {
  if (cps[i] != '@' && cps[i] != '#') return 0;
  if (i > 0 && is_alnum(cps[i - 1])) return 0;
  std::size_t j = i + 1;
  while (j < n && cps[j] < 0x80 && (is_alnum(cps[j]) || cps[j] == '_')) ++j;
  return j - i > 1 ? j - i : 0;
}

}  // namespace

std::size_t emoji_cluster_length(const char32_t* cps, std::size_t n) {
  if (n == 0) return 0;
  // Flag: a pair of regional indicators (a lone one still forms a token).
  if (is_regional_indicator(cps[0])) return (n >= 2 && is_regional_indicator(cps[1])) ? 2 : 1;
  // Keycap: [0-9#*] FE0F? 20E3.
  if (is_keycap_base(cps[0])) {
    if (n >= 2 && is_keycap_mark(cps[1])) return 2;
    if (n >= 3 && cps[1] == 0xFE0F && is_keycap_mark(cps[2])) return 3;
    return 0;
  }
  if (!is_emoji_base(cps[0]) && !is_skin_tone(cps[0])) return 0;
  std::size_t j = 1;
  for (;;) {
    while (j < n && (is_variation_selector(cps[j]) || is_skin_tone(cps[j]) ||
                     is_emoji_tag(cps[j]) || is_keycap_mark(cps[j]))) {
      ++j;
    }
    if (j + 1 < n && is_zwj(cps[j]) &&
        (is_emoji_base(cps[j + 1]) || is_regional_indicator(cps[j + 1]))) {
      j += 2;
      continue;
    }
    break;
  }
  return j;
}

const char* to_string(TokenKind k) {
  switch (k) {
    case TokenKind::cjk:
      return "cjk";
    case TokenKind::word:
      return "word";
    case TokenKind::number:
      return "number";
    case TokenKind::placeholder:
      return "placeholder";
    case TokenKind::emoji:
      return "emoji";
    case TokenKind::emoticon:
      return "emoticon";
    case TokenKind::weibo_emoticon:
      return "weibo_emoticon";
    case TokenKind::term:
      return "term";
    case TokenKind::url:
      return "url";
    case TokenKind::mention:
      return "mention";
    case TokenKind::hashtag:
      return "hashtag";
    case TokenKind::punct:
      return "punct";
    case TokenKind::other:
      return "other";
  }
  return "other";
}

const std::vector<std::string>& builtin_emoticons() {
  static const std::vector<std::string> list = {":)",
                                                ":-)",
                                                ":]",
                                                "=)",
                                                ":(",
                                                ":-(",
                                                ":[",
                                                "=(",
                                                ":D",
                                                ":-D",
                                                "=D",
                                                "xD",
                                                "XD",
                                                ":P",
                                                ":-P",
                                                ":p",
                                                ":-p",
                                                ";)",
                                                ";-)",
                                                ":'(",
                                                ":'-(",
                                                ":,(",
                                                ":/",
                                                ":-/",
                                                ":\\",
                                                ":|",
                                                ":-|",
                                                ":O",
                                                ":-O",
                                                ":o",
                                                ":-o",
                                                ":S",
                                                ":s",
                                                ":@",
                                                ":$",
                                                ":*",
                                                ":-*",
                                                ">:(",
                                                ">:-(",
                                                ">:O",
                                                "D:<",
                                                ":3",
                                                "<3",
                                                "</3",
                                                "T_T",
                                                "T.T",
                                                "TT_TT",
                                                ";_;",
                                                "QAQ",
                                                "QWQ",
                                                "qaq",
                                                ">_<",
                                                ">.<",
                                                "^_^",
                                                "^^",
                                                "^.^",
                                                "-_-",
                                                "-.-",
                                                "-_-||",
                                                "o_O",
                                                "O_o",
                                                "o.O",
                                                "O.o",
                                                "orz",
                                                "OTL",
                                                "Orz",
                                                "@_@",
                                                "x_x",
                                                "X_X",
                                                "¯\\_(ツ)_/¯",
                                                "(╯°□°)╯︵ ┻━┻",
                                                "(´･ω･`)"};
  return list;
}

bool is_placeholder_name(std::string_view c) {
  static const std::unordered_set<std::string_view> names = {
      "数字",     "地址",     "姓名", "订单编号", "金额",   "时间",     "站点",     "电话",
      "日期",     "组织机构", "邮箱", "链接",     "表情",   "身份证号", "商品快照", "图片",
      "视频",     "语音",     "文件", "号码",     "手机号", "卡号",     "账号",     "用户名",
      "快递单号", "运单号",   "人名", "公司",     "网址",   "商品"};
  return names.count(c) > 0;
}

bool is_weibo_emoticon_name(std::string_view c) {
  static const std::unordered_set<std::string_view> names = {
      "怒",        "哈哈",     "泪",       "抓狂",   "衰",     "汗",     "鄙视", "心",     "伤心",
      "赞",        "微笑",     "嘻嘻",     "可怜",   "委屈",   "生病",   "吃惊", "晕",     "拜拜",
      "偷笑",      "悲伤",     "失望",     "怒骂",   "怒罵",   "發怒",   "发怒", "哼",     "左哼哼",
      "右哼哼",    "打脸",     "doge",     "喵喵",   "二哈",   "笑cry",  "允悲", "费解",   "挖鼻",
      "挖鼻屎",    "黑线",     "思考",     "疑问",   "白眼",   "傻眼",   "good", "ok",     "耶",
      "呵呵",      "爱你",     "爱你哟",   "抱抱",   "花心",   "睡觉",   "不要", "给力",   "給力",
      "哈欠",      "困",       "酷",       "鼓掌",   "害羞",   "亲亲",   "色",   "阴险",   "嘘",
      "闭嘴",      "吐",       "钱",       "馋嘴",   "顶",     "弱",     "强",   "握手",   "作揖",
      "赞啊",      "蜡烛",     "心碎",     "伤心",   "太开心", "挤眼",   "可爱", "坏笑",   "舔屏",
      "污",        "费解",     "并不简单", "摊手",   "跪了",   "中国赞", "威武", "围观",   "浮云",
      "神马",      "互粉",     "礼物",     "草泥马", "兔子",   "熊猫",   "猪头", "奥特曼", "囧",
      "cai太好了", "泪流满面", "笑哈哈",   "哈哈哈", "ok"};
  return names.count(c) > 0;
}

std::vector<Token> tokenize(std::string_view text, const TokenizeOptions& options) {
  const DecodedText decoded = decode_utf8(text, options.utf8);
  return tokenize(text, decoded, options);
}

std::vector<Token> tokenize(std::string_view bytes, const DecodedText& decoded,
                            const TokenizeOptions& options) {
  const char32_t* cps = decoded.cps.data();
  const std::size_t n = decoded.cps.size();
  std::vector<Token> out;
  // Chinese text is a token per character: n / 2 made every CJK turn move its tokens to a second
  // buffer. A text has at most n tokens: up to 512 code points (longer than a turn usually is) n
  // are reserved, beyond that about half.
  out.reserve(std::min(n, n / 2 + 256));
  auto emit = [&](std::size_t i, std::size_t len, TokenKind kind) {
    Token t;
    t.kind = kind;
    t.char_start = static_cast<std::int64_t>(i);
    t.char_end = static_cast<std::int64_t>(i + len);
    t.byte_start = decoded.byte_offsets[i];
    t.byte_end = decoded.byte_offsets[i + len];
    if (decoded.replaced == 0) {
      t.text.assign(bytes.substr(static_cast<std::size_t>(t.byte_start),
                                 static_cast<std::size_t>(t.byte_end - t.byte_start)));
    } else {
      t.text = encode_utf8(cps + i, len);  // lossy: keep the token valid UTF-8
    }
    // Most tokens (a CJK character, a lower-case word) are their own normalized form: t.text is the
    // UTF-8 of exactly these code points, so normalize_term would give it back unchanged.
    t.lower = normalizes_to_itself(cps + i, len) ? t.text : normalize_term(t.text);
    out.push_back(std::move(t));
  };
  const TermMatcher* terms = options.terms;

  std::size_t i = 0;
  while (i < n) {
    const char32_t c = cps[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    // Bracketed placeholder or Weibo emoticon.
    if (c == '[' || c == 0x3010) {
      const char32_t close = c == '[' ? U']' : U'\u3011';
      std::size_t j = i + 1;
      while (j < n && j - i <= 11 && cps[j] != close && cps[j] != '[' && cps[j] != '\n') ++j;
      if (j < n && cps[j] == close && j > i + 1) {
        const std::string content = encode_utf8(cps + i + 1, j - i - 1);
        const std::size_t len = j - i + 1;
        std::size_t consumed = 0;
        const bool in_lexicon = terms != nullptr &&
                                terms->longest_match(cps + i, n - i, &consumed) > 0 &&
                                consumed == len;
        if (is_placeholder_name(content)) {
          emit(i, len, TokenKind::placeholder);
          i += len;
          continue;
        }
        if (is_weibo_emoticon_name(normalize_term(content)) || in_lexicon) {
          emit(i, len, TokenKind::weibo_emoticon);
          i += len;
          continue;
        }
      }
    }
    if (const std::size_t len = url_length(cps, n, i)) {
      emit(i, len, TokenKind::url);
      i += len;
      continue;
    }
    if (const std::size_t len = emoji_cluster_length(cps + i, n - i)) {
      emit(i, len, TokenKind::emoji);
      i += len;
      continue;
    }
    // The natural token here, then a longer lexicon term if there is one.
    std::size_t len = 0;
    TokenKind kind = TokenKind::other;
    if ((len = handle_length(cps, n, i))) {
      kind = cps[i] == '@' ? TokenKind::mention : TokenKind::hashtag;
    } else if ((len = emoticon_length(cps, n, i))) {
      kind = TokenKind::emoticon;
    } else if ((len = word_length(cps, n, i))) {
      kind = TokenKind::word;
    } else if ((len = number_length(cps, n, i))) {
      kind = TokenKind::number;
    } else if (is_cjk(c)) {
      len = 1, kind = TokenKind::cjk;
    } else if (is_punct(c)) {
      len = 1;
      while (i + len < n && cps[i + len] == c) ++len;
      kind = TokenKind::punct;
    } else {
      len = 1, kind = TokenKind::other;
    }
    if (terms != nullptr && kind != TokenKind::mention) {
      std::size_t consumed = 0;
      if (terms->longest_match(cps + i, n - i, &consumed) > 0 && consumed > len) {
        const bool left_ok = !(is_alnum(cps[i]) && i > 0 && is_alnum(cps[i - 1]));
        const bool right_ok =
            !(is_alnum(cps[i + consumed - 1]) && i + consumed < n && is_alnum(cps[i + consumed]));
        bool symbols_only = true;
        for (std::size_t k = i; k < i + consumed; ++k) {
          if (cps[k] >= 0x80 || is_alnum(cps[k]) || is_space(cps[k])) symbols_only = false;
        }
        // A lexicon emoticon obeys the built-in emoticons' bracket rule too.
        const bool bracket_ok =
            !symbols_only || (!opens_bracket_group(cps[i + consumed - 1], cps, n, i + consumed) &&
                              !is_label_bracket(cps, i, consumed));
        if (left_ok && right_ok && bracket_ok) {
          len = consumed;
          kind = symbols_only ? TokenKind::emoticon : TokenKind::term;
        }
      }
    }
    emit(i, len, kind);
    i += len;
  }
  return out;
}

}  // namespace kessel::text
