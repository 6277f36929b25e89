// Fillers, courtesy formulas and sign-offs (src/summarize/content.h).
#include "summarize/content.h"

#include <algorithm>
#include <cctype>
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>

#include "kessel/text/tokenize.h"
#include "kessel/text/utf8.h"
#include "summarize/agent_openings.h"

namespace kessel::summarize {

namespace {

// How a listed phrase may cover a unit. A unit is not content when phrases cover all of it and it
// holds a filler or a formula; glue needs a formula beside it ("请问…吗" only around 帮到您), loose
// glue any filler or formula ("好的[姓名]", "thanks so much guys").
enum class Role { filler, formula, glue, loose_glue };

// The words a unit is matched on: CJK characters one by one, Latin words lowercased (’ as '), numbers,
// placeholders and hashtags as written. Punctuation, emoji, emoticons, @mentions and URLs say nothing,
// nor (`drop_counters`, English) a tweet thread's counter.
bool is_counter(const text::Token& t);

std::vector<std::string> symbols_of(std::span<const text::Token> tokens, bool drop_counters = false) {
  std::vector<std::string> out;
  for (const auto& t : tokens) {
    if (drop_counters && is_counter(t)) continue;
    switch (t.kind) {
      case text::TokenKind::punct: case text::TokenKind::other: case text::TokenKind::emoji:
      case text::TokenKind::emoticon: case text::TokenKind::weibo_emoticon: case text::TokenKind::mention:
      case text::TokenKind::url:
        continue;
      case text::TokenKind::word: {
        std::string w = t.lower;
        for (std::size_t at; (at = w.find("\xE2\x80\x99")) != std::string::npos;) w.replace(at, 3, "'");
        out.push_back(std::move(w));
        break;
      }
      default:
        out.push_back(t.lower.empty() ? t.text : t.lower);
    }
  }
  return out;
}

struct Phrase {
  std::vector<std::string> symbols;
  Role role;
};

// The phrases of one language, by their first symbol.
using PhraseTable = std::unordered_map<std::string, std::vector<Phrase>>;

void add(PhraseTable& table, Role role, std::initializer_list<std::string_view> phrases) {
  for (std::string_view p : phrases) {
    Phrase phrase{symbols_of(text::tokenize(p)), role};
    if (!phrase.symbols.empty()) table[phrase.symbols.front()].push_back(std::move(phrase));
  }
}

// Chinese: the acknowledgements, greetings and particles of CSDS turns, and the agent's formulas
// (openings, closings, "please wait", apologies, the request for a rating), read off the most
// frequent short units of CSDS val.
const PhraseTable& zh_phrases() {
  static const PhraseTable table = [] {
    PhraseTable t;
    add(t, Role::filler,
        {"好的", "好", "好吧", "好哒", "好滴", "好嘞", "好咧", "嗯", "嗯嗯", "恩", "恩恩", "嗯呢", "哦", "哦哦", "噢",
         "喔", "额", "呃", "啊", "呀", "呢", "哈", "哈哈", "呵呵", "嘿嘿", "吧", "啦", "嘛", "哒", "咯", "哟", "是的",
         "是", "是啊", "是呀", "是吗", "对", "对的", "对啊", "对呀", "可以", "可以的", "行", "行吧", "行的", "谢谢",
         "谢谢你", "谢谢您", "谢谢啦", "谢啦", "谢了", "多谢", "感谢", "非常感谢", "十分感谢", "麻烦了", "麻烦你了",
         "麻烦您了", "没有了", "没了", "暂时没有了", "暂时没有", "没有其他问题了", "没别的了", "没有别的了", "没事",
         "没事了", "没事的", "知道了", "明白了", "明白", "了解", "了解了", "收到", "懂了", "再见", "拜拜", "亲", "亲亲",
         "亲爱的", "亲爱哒", "在吗", "在么", "在不", "在", "在的", "在呢", "在嘛", "人呢", "有人吗", "还在吗", "你好",
         "请问在吗", "请问在么", "请问在不", "请问有人吗", "在不在", "请问在不在",
         "您好", "哈喽", "小姐姐", "没啦", "那就好", "哎", "您说", "ok", "okay",
         // What the customer types to the service's bot to reach an agent, or copies from its prompt: the
         // route, not the case (no CSDS val reference of the 51 dialogues with 转人工 mentions it).
         "我要转人工", "转人工", "人工", "人工客服", "转人工客服", "请选择咨询订单", "选择咨询订单"});
    add(t, Role::formula,
        {"帮您", "帮到您", "帮助您", "帮你", "帮到你", "效劳", "为您服务", "很高兴为您服务", "竭诚为您服务",
         "帮忙的吗", "帮忙的么", "帮助的吗", "帮助的么", "感谢您对京东的支持", "感谢您对京东的关注", "感谢您的支持",
         "感谢您的理解", "感谢您的耐心等待", "感谢您的耐心", "感谢您的配合", "感谢您的咨询", "感谢您", "非常感谢您",
         "祝您", "生活愉快", "购物愉快", "工作愉快", "愉快", "生意兴隆", "财源广进", "身体健康", "万事如意", "再见",
         "稍等", "请稍等", "稍后", "耐心等待", "等待", "一小会儿", "正在为您查询", "为您查询", "为您核实",
         "核实处理中", "查询中", "带来不便", "不便", "见谅", "谅解", "怠慢之处", "添麻烦了", "抱歉", "非常抱歉",
         "很抱歉", "不好意思", "对不起", "没能帮到您", "没能帮到你", "没有帮到您", "不客气", "客气了", "客气啦", "太客气了", "放心", "应该做的", "很开心", "评价", "做出评价",
         "小红心", "么么哒", "欢迎咨询", "欢迎光临", "尊敬的", "小主", "辛苦了", "辛苦您了",
         "咨询之前的问题还是有其他的问题需要处理",
         // The closing compliments and the rating request's directions (很高兴遇到您这么善解人意的客户; 遇到像您这样
         // 善解人意的客户，真是我们莫大的荣幸呢; 还辛苦您给小妹打个评价呢~点击表情栏旁边的“+”哦).
         "善解人意", "荣幸", "福分", "份内事", "分内事", "认可", "打个评价", "小小的评价", "表情栏", "太客气啦"});
    add(t, Role::glue,
        {"请问", "请", "还请", "还有", "其他", "其它", "别的", "什么", "还", "可以", "能", "能够", "我", "我们", "小妹",
         "妹纸", "这边", "这里", "的", "吗", "么", "问题", "需要", "帮忙", "帮助", "处理", "或", "或者", "解决", "为",
         "给", "您", "你", "您的", "业务", "咨询", "方面", "一下", "下", "再", "现在", "目前", "正在", "正", "马上",
         "立即", "中", "有", "之处", "多多", "服务", "点击", "做出", "对", "别忘了", "也", "都", "这", "了", "就",
         "到", "稍微", "看", "看看", "辛苦", "商家", "卖家", "朋友", "在线", "客服", "师傅", "用户", "客官", "妹子", "小秘书", "两",
         "三", "分钟", "些", "很高兴", "高兴", "遇到", "像", "这样", "这么", "客户", "真是", "莫大", "京东", "支持",
         "与", "理解", "旁边", "挥一挥", "小手", "一个", "我们的", "这些", "是我", "帮", "帮到"});
    add(t, Role::loose_glue, {"[姓名]"});
    return t;
  }();
  return table;
}

// English: acknowledgements and greetings, and the agent's formulas (openings, "anything else",
// wishes, thanks for reaching out, apologies for the inconvenience), read off TweetSumm's short units.
const PhraseTable& en_phrases() {
  static const PhraseTable table = [] {
    PhraseTable t;
    add(t, Role::filler,
        {"ok", "okay", "k", "kk", "okey", "okie", "thanks", "thank you", "thankyou", "thank u", "thx", "ty", "tysm",
         "cheers", "hi", "hello", "hey", "hiya", "yes", "yeah", "yep", "yup", "ya", "yea", "sure", "great", "awesome",
         "cool", "perfect", "nice", "good", "excellent", "amazing", "wonderful", "fantastic", "brilliant", "lovely",
         "fine", "alright", "all right", "oh", "oh no", "ah", "ahh", "wow", "haha", "hahaha", "lol", "hmm", "um", "uh", "np",
         "no problem", "no worries", "you're welcome", "youre welcome", "your welcome", "you are welcome",
         "most welcome", "you're most welcome", "you are most welcome", "welcome", "my pleasure", "our pleasure",
         "bye", "goodbye", "will do", "got it", "gotcha", "sounds good", "much appreciated", "appreciated",
         "appreciate it", "i appreciate it", "you too", "same to you", "for the help", "for your help",
         "for the info", "for the information", "for the update", "for your time", "for the quick response",
         "for the reply", "for your reply", "so much", "very much", "a lot", "again", "sent", "dm sent", "dmed",
         "dm'd", "what's up", "whats up", "sup", "how are you", "how are you doing", "how are you today",
         "how's it going", "hows it going", "how is it going", "hope you're well", "hope you are well"});
    add(t, Role::formula,
        {"anything else", "have a", "great day", "good day", "nice day", "wonderful day", "lovely day",
         "great weekend", "good weekend", "nice weekend", "great evening", "good night", "reaching out", "reach out",
         "contacting us", "happy to help", "glad to help", "glad we could help", "glad i could help", "here to help",
         "here for you", "take care", "don't hesitate", "feel free", "let us know", "let me know",
         "any other questions", "any questions", "the inconvenience", "any inconvenience", "sorry to hear that",
         "for your patience", "for your understanding", "for the feedback", "for your feedback",
         "for letting us know", "enjoy your day", "rest of your day", "hope this helps", "hope that helps",
         "appreciate your patience", "glad to hear that", "glad to hear it", "happy to hear that", "happy to hear it"});
    add(t, Role::glue,
        {"is", "are", "was", "there", "else", "i", "we", "we're", "i'm", "we'll", "you", "your", "can", "could", "may",
         "would", "will", "help", "assist", "with", "today", "do", "let", "us", "know", "if", "need", "feel", "free",
         "to", "day", "weekend", "evening", "night", "one", "hope", "enjoy", "glad", "happy", "be", "here", "further",
         "any", "other", "more", "please", "the", "a", "an", "of", "for", "at", "on", "in", "this", "that", "it",
         "always", "anytime", "our", "something", "questions", "question", "concerns", "sorry", "apologies", "rest",
         "again"});
    add(t, Role::loose_glue, {"so", "very", "much", "really", "just", "guys", "man", "all", "everyone", "team",
                             "both", "too", "then", "and", "lot", "a"});
    return t;
  }();
  return table;
}

// Whether the phrases cover symbols [0, n): a dynamic program over positions and states (bit 0: a
// filler or formula was used, bit 1: a formula, bit 2: glue). Returns 0 when no cover is accepted
// (content), 1 for a cover of fillers, 2 for a cover with a formula (a courtesy), 3 for a cover of glue
// without a formula (content on its own: 您看可以吗, 好吗; beside an agent's opening, its tag question).
int cover(const std::vector<std::string>& s, const PhraseTable& table) {
  const std::size_t n = s.size();
  std::vector<std::array<bool, 8>> reach(n + 1);
  reach[0][0] = true;
  for (std::size_t i = 0; i < n; ++i) {
    bool any = false;
    for (bool r : reach[i]) any = any || r;
    if (!any) continue;
    const auto at = table.find(s[i]);
    if (at == table.end()) continue;
    for (const Phrase& ph : at->second) {
      const std::size_t len = ph.symbols.size();
      if (i + len > n) continue;
      bool same = true;
      for (std::size_t k = 1; k < len && same; ++k) same = s[i + k] == ph.symbols[k];
      if (!same) continue;
      const int add = ph.role == Role::filler ? 1 : ph.role == Role::formula ? 3 : ph.role == Role::glue ? 4 : 0;
      for (int st = 0; st < 8; ++st)
        if (reach[i][static_cast<std::size_t>(st)]) reach[i + len][static_cast<std::size_t>(st | add)] = true;
    }
  }
  int best = 0;
  for (int st = 0; st < 8; ++st) {
    if (!reach[n][static_cast<std::size_t>(st)] || !(st & 1)) continue;  // no filler or formula
    if ((st & 4) && !(st & 2)) continue;                                  // glue without a formula
    best = std::max(best, (st & 2) ? 2 : 1);
  }
  return best == 0 && (reach[n][4] || reach[n][5]) ? 3 : best;
}

bool is_upper_ascii(char c) { return c >= 'A' && c <= 'Z'; }
bool is_letters(std::string_view w) {
  for (char c : w)
    if (!((c >= 'a' && c <= 'z') || is_upper_ascii(c))) return false;
  return !w.empty();
}
bool is_mark(const text::Token& t) {
  return t.text == "^" || t.text == "-" || t.text == "--" || t.text == "/" || t.text == "*" || t.text == "~";
}
// A tweet thread's counter ("2/2", "(1/3)" without its brackets) or the digit left of one ("2 ^XS").
bool is_counter(const text::Token& t) {
  const std::string& s = t.text;
  return t.kind == text::TokenKind::number &&
         (s.size() == 1 || (s.size() == 3 && s[1] == '/' && s[0] >= '1' && s[0] <= s[2] && s[2] <= '9'));
}

// One name or initials an agent signs a tweet with: behind a mark ("^JK", "-Rach", "/MT", "^lp"),
// behind a thanks ("Ty - Darren", "Rgds, Mahi", "Thanks-Mich", "Thanks ^lp"; a team's two words: "Rgds, Idea
// Care"), or alone as the last sentence of a turn
// of several ("… we'll fix it. Phil."); thread counters around it aside ("Chris 2/2"). Not a word that
// answers or asks something ("No.", "Done.", "Why?") or that a comma joins to what follows ("However,").
bool is_signoff(const Prepared& p, std::size_t u) {
  std::vector<const text::Token*> t;
  for (const auto& token : p.unit_tokens[u])
    if (token.kind != text::TokenKind::mention && token.kind != text::TokenKind::url && !is_counter(token) &&
        token.text != "(" && token.text != ")")
      t.push_back(&token);
  while (!t.empty() && t.back()->text == ".") t.pop_back();
  if (t.empty() || t.back()->kind != text::TokenKind::word) return false;
  const text::Token& name = *t.back();
  t.pop_back();
  const auto dash = name.text.find('-');
  if (t.empty() && dash != std::string::npos && dash > 0 && dash + 1 < name.text.size())  // "Thanks-Mich"
    return is_thanks(name.lower.substr(0, dash)) && is_upper_ascii(name.text[dash + 1]) &&
           is_letters(std::string_view(name.text).substr(dash + 1));
  if (name.text.size() > 15 || !is_letters(name.text)) return false;
  const bool marked = !t.empty() && is_mark(*t.back());
  if (marked) t.pop_back();
  if (!t.empty() && (t.back()->text == "," || t.back()->text == "-")) t.pop_back();
  if (!t.empty() && t.back()->kind == text::TokenKind::word && is_thanks(t.back()->lower)) {
    t.pop_back();
    return t.empty() && (is_upper_ascii(name.text[0]) || (marked && name.text.size() <= 4));  // "Thanks ^lp"
  }
  // A team's name of two words after regards ("Rgds, Idea Care").
  if (!marked && t.size() == 3 && t[2]->kind == text::TokenKind::word && is_upper_ascii(name.text[0]) &&
      is_upper_ascii(t[2]->text[0]) && is_letters(t[2]->text) && t[1]->text == "," && is_thanks(t[0]->lower))
    return true;
  if (!t.empty()) return false;
  if (marked) return is_upper_ascii(name.text[0]) || name.text.size() <= 4;
  if (!is_upper_ascii(name.text[0])) return false;
  static const std::array<std::string_view, 24> kAnswers = {
      "no",       "nope",       "nah",        "never",    "none",  "nothing", "done",    "confirmed",
      "correct",  "exactly",    "absolutely", "definitely", "agreed", "understood", "noted", "please",
      "help",     "really",     "why",        "what",     "however", "unfortunately", "also", "sorry"};
  for (std::string_view a : kAnswers)
    if (name.lower == a) return false;
  const Unit& unit = p.units[u];
  const bool last_of_turn = u + 1 == p.units.size() || p.units[u + 1].turn != unit.turn;
  return last_of_turn && unit.sentence > 0 && p.unit_tokens[u].back().text != ",";
}

// Whether unit u asks for a survey or a rating (is_survey_request).
bool asks_for_survey(const Prepared& p, std::size_t u) {
  const auto& t = p.unit_tokens[u];
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::string& w = t[i].lower;
    if (w == "survey" || w == "questionnaire") return true;
    if (w == "rate" || w == "rating")
      for (std::size_t j = i + 1; j < t.size() && j <= i + 3; ++j)
        if (t[j].lower == "us" || t[j].lower == "experience" || t[j].lower == "service" ||
            t[j].lower == "interaction" || t[j].lower == "support")
          return true;
    if (w == "how" && i + 2 < t.size() &&
        ((t[i + 1].lower == "we" && t[i + 2].lower == "did") ||
         (t[i + 1].lower == "did" && t[i + 2].lower == "we")))
      return true;
  }
  return false;
}

// An agent's request to rate the service or answer a survey ("Help us improve our Twitter support by
// answering our survey on this link:", "Please rate your experience", "let us know how we did"): the
// close of a conversation, not what it was about. So is the sentence that leads into it in the same
// tweet and speaks of the customer's experience or feedback ("We would like to know about your experience
// with the support you received here on Twitter. Please … respond to this survey").
bool is_survey_request(const Prepared& p, std::size_t u) {
  if (asks_for_survey(p, u)) return true;
  const bool leads_in = u + 1 < p.units.size() && p.units[u + 1].turn == p.units[u].turn && asks_for_survey(p, u + 1);
  if (!leads_in) return false;
  for (const text::Token& t : p.unit_tokens[u])
    if (t.lower == "experience" || t.lower == "feedback") return true;
  return false;
}

// zh: a customer's menu entry (content.h): 订单业务咨询, not 我有问题要咨询 or 两个都咨询.
bool is_menu_entry(std::u32string_view text) {
  std::u32string letters;
  for (char32_t cp : text)
    if (text::is_cjk(cp)) letters.push_back(cp);
  if (!letters.ends_with(U"咨询") || static_cast<int>(letters.size()) > kMenuEntryLetters) return false;
  return letters.find_first_of(U"我想要都不吗") == std::u32string::npos;
}

// Chinese letters outside placeholders, and Latin words of three letters or more (a word, not an id's
// prefix: VB[数字]).
bool holds_words(std::u32string_view text) {
  bool placeholder = false;
  std::size_t latin = 0;
  for (char32_t cp : text) {
    if (cp == U'[') placeholder = true;
    else if (cp == U']') placeholder = false;
    else if (!placeholder && text::is_cjk(cp)) return true;
    const bool letter = !placeholder && cp < 0x80 && std::isalpha(static_cast<int>(cp));
    latin = letter ? latin + 1 : 0;
    if (latin >= 3) return true;
  }
  return false;
}

// zh: the header the chat system sends when the customer opens it from an order (咨询订单号:[订单编号]商品ID:
// 2194131526; [订单编号:[数字]，订单金额:，下单时间:], te157 750's opening line): it opens with one of the
// order form's labels and holds only labels, placeholders, digits and marks, no word of the customer's.
bool is_order_header(std::u32string_view text) {
  static constexpr std::u32string_view kLabels[] = {U"咨询订单号", U"订单号", U"商品ID", U"商品编号",
                                                    U"订单编号", U"订单金额", U"下单时间"};
  if (!holds_words(text)) return false;  // placeholders alone ([订单编号]) are details
  const std::u32string_view opening = text.starts_with(U"[") ? text.substr(1) : text;
  if (std::none_of(std::begin(kLabels), std::end(kLabels), [&](std::u32string_view l) { return opening.starts_with(l); }))
    return false;
  std::u32string t(text);
  for (std::u32string_view label : kLabels)
    for (std::size_t at; (at = t.find(label)) != std::u32string::npos;) t.erase(at, label.size());
  return !holds_words(t);
}

}  // namespace

bool is_thanks(std::string_view lower) {
  return lower == "thanks" || lower == "thank" || lower == "ty" || lower == "thx" || lower == "cheers" ||
         lower == "regards" || lower == "rgds" || lower == "best";
}

bool written_in_lower_case(const Prepared& p, std::string_view word) {
  for (const Unit& unit : p.units)
    for (std::size_t at = unit.text.find(word); at != std::string::npos; at = unit.text.find(word, at + 1)) {
      const std::size_t end = at + word.size();
      // Not in a handle, a tag or an address (@amazon, #amazon, amazon.com).
      const bool starts_word = at == 0 || (!std::isalpha(static_cast<unsigned char>(unit.text[at - 1])) &&
                                           std::string_view("@#/.").find(unit.text[at - 1]) == std::string_view::npos);
      if (starts_word && (end == unit.text.size() || unit.text[end] != '.' || end + 1 == unit.text.size() ||
                          !std::isalpha(static_cast<unsigned char>(unit.text[end + 1]))) &&
          (end == unit.text.size() || !std::isalpha(static_cast<unsigned char>(unit.text[end]))))
        return true;
    }
  return false;
}

const char* to_string(UnitContent kind) {
  switch (kind) {
    case UnitContent::content: return "content";
    case UnitContent::filler: return "filler";
    case UnitContent::courtesy: return "courtesy";
    case UnitContent::signoff: return "signoff";
    case UnitContent::menu: return "menu";
    case UnitContent::details: return "details";
  }
  return "content";
}

// en: whether the last word of a unit (past its punctuation, emoji and addressing) is written as a name,
// with a capital and then lower case (not "TRY" in "NICE TRY!"), is not its first word, and is its last
// symbol (no number after it).
bool ends_with_a_name(const std::vector<text::Token>& tokens, const std::string& last_symbol) {
  std::size_t words = 0;
  const text::Token* last = nullptr;
  for (const auto& t : tokens)
    if (t.kind == text::TokenKind::word) {
      ++words;
      last = &t;
    }
  return words >= 2 && last != nullptr && is_upper_ascii(last->text[0]) && last->text != last->lower &&
         std::any_of(last->text.begin() + 1, last->text.end(), [](char c) { return c >= 'a' && c <= 'z'; }) &&
         last->lower == last_symbol;
}

UnitContent classify_unit(const Prepared& p, std::size_t u) {
  const bool zh = p.lang == Lang::zh;
  const std::u32string_view decoded(p.unit_cps[u].data(), p.unit_cps[u].size());  // for the Chinese tests below
  if (zh && p.units[u].speaker == text::Speaker::customer && (is_menu_entry(decoded) || is_order_header(decoded)))
    return UnitContent::menu;
  const std::vector<std::string> s = symbols_of(p.unit_tokens[u], p.lang == Lang::en);
  if (s.empty()) return UnitContent::filler;  // emoji, emoticons, punctuation or addressing only
  // zh: details alone, no word: [订单编号], [数字], 5051641; or an agent's paste of the order form's fields
  // (下单时间[日期][时间], 订单编号:[订单编号]), which te157 716 showed as if it answered 要多久送达.
  if (zh && (!holds_words(decoded) || (p.units[u].speaker == text::Speaker::agent && is_order_header(decoded))))
    return UnitContent::details;
  // A unit this long is never only formulas (the longest CSDS closing has 18 characters and particles).
  constexpr std::size_t kLongest = 40;
  if (s.size() <= kLongest) {
    int c = cover(s, p.lang == Lang::zh ? zh_phrases() : en_phrases());
    // en: a name after the formula addresses someone ("What's up SimultaneousEquation?", "Thanks Jane").
    if (c == 0 && p.lang == Lang::en && s.size() >= 2 && ends_with_a_name(p.unit_tokens[u], s.back()) &&
        !(p.units[u].speaker == text::Speaker::agent && is_signoff(p, u)))  // "Ty - Darren" signs off
      c = cover(std::vector<std::string>(s.begin(), s.end() - 1), en_phrases());
    if (c == 1) return UnitContent::filler;
    if (c == 2) return UnitContent::courtesy;
  }
  if (p.lang == Lang::zh && p.units[u].speaker == text::Speaker::agent &&
      only_opens_conversation(p.unit_tokens[u], [](std::span<const text::Token> clause) {
        const std::vector<std::string> symbols = symbols_of(clause);
        return symbols.empty() ? 1 : cover(symbols, zh_phrases());
      }))
    return UnitContent::courtesy;
  if (p.lang == Lang::en && p.units[u].speaker == text::Speaker::agent &&
      (is_signoff(p, u) || is_survey_request(p, u)))
    return UnitContent::signoff;
  return UnitContent::content;
}

std::vector<char> content_mask(const Prepared& p) {
  std::vector<char> mask(p.units.size(), 0);
  for (std::size_t u = 0; u < p.units.size(); ++u) mask[u] = classify_unit(p, u) == UnitContent::content;
  for (std::size_t m = 0; m < p.mentions.size(); ++m)
    if (p.mentions[m].expressed) mask[static_cast<std::size_t>(p.mention_unit[m])] = 1;
  return mask;
}

}  // namespace kessel::summarize
