#include "summarize/compress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "kessel/error.h"
#include "util/hash.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

std::string joined(const UnitTokens& u) {
  std::string s;
  for (const auto& t : u.tokens) s += t.text;
  return s;
}

TEST(Compress, FeaturesAreDeterministicAndInRange) {
  auto d = make_dialogue({{Speaker::customer, {"您好，请问我的订单[订单编号]什么时候发货呢？"}},
                          {Speaker::agent, {"亲亲，订单今天发货哦。"}}});
  const Prepared p = prepare(d, lexicon());
  const auto a = compress_features(p, 1000), b = compress_features(p, 1000);
  ASSERT_EQ(a.size(), 2u);
  for (std::size_t u = 0; u < a.size(); ++u) {
    ASSERT_EQ(a[u].features.size(), a[u].tokens.size() * kCompressFeatures);
    EXPECT_EQ(a[u].features, b[u].features);
    for (auto id : a[u].features) {
      EXPECT_GE(id, 0);
      EXPECT_LT(id, 1000);
    }
  }
  // The placeholder is one token: deletion can never cut it in half.
  bool placeholder = false;
  for (const auto& t : a[0].tokens) placeholder = placeholder || t.text == "[订单编号]";
  EXPECT_TRUE(placeholder);
  EXPECT_THROW(compress_features(p, 0), InvalidArgument);
}

// The token-deletion features as first written, each one a string hashed into its bucket:
// compress_features hashes the same strings part by part without building them.
std::vector<std::vector<std::vector<std::int32_t>>> plain_compress_features(const Prepared& p, int buckets) {
  const auto B = static_cast<std::uint64_t>(buckets);
  const std::uint64_t seed = fnv1a64("compress");
  auto form_of = [](const text::Token& t) -> std::string {
    if (t.kind == text::TokenKind::number) return "<num>";
    return t.lower.empty() ? t.text : t.lower;
  };
  auto bucket_count = [](int n) { return n <= 2 ? n : (n <= 5 ? 3 : 4); };
  std::map<std::string, std::pair<int, int>> occurs;  // form -> (customer units, agent units)
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    std::set<std::string> seen;
    for (const auto& t : p.unit_tokens[u]) seen.insert(form_of(t));
    for (const auto& f : seen) (p.units[u].speaker == Speaker::customer ? occurs[f].first : occurs[f].second) += 1;
  }
  std::vector<std::vector<std::vector<std::int32_t>>> out(p.units.size());
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    const auto& toks = p.unit_tokens[u];
    const int T = static_cast<int>(toks.size());
    const bool customer = p.units[u].speaker == Speaker::customer;
    const std::string spk = customer ? "C" : "A";
    const std::string len = std::to_string(std::min(p.units[u].chars / 4, 10));
    auto form = [&](int i) -> std::string { return i < 0 ? "^" : i >= T ? "$" : form_of(toks[static_cast<std::size_t>(i)]); };
    for (int i = 0; i < T; ++i) {
      const std::string t = form(i), pv = form(i - 1), nx = form(i + 1), pv2 = form(i - 2), nx2 = form(i + 2);
      const auto& c = occurs[t];
      const int own = customer ? c.first - 1 : c.second - 1;
      const int other = customer ? c.second : c.first;
      const std::string kind = text::to_string(toks[static_cast<std::size_t>(i)].kind);
      const int rel = T > 1 ? (4 * i) / T : 0;
      const std::string feats[] = {
          "t|" + t,
          "pt|" + pv + "|" + t,
          "tn|" + t + "|" + nx,
          "ppt|" + pv2 + "|" + pv + "|" + t,
          "tnn|" + t + "|" + nx + "|" + nx2,
          "pn|" + pv + "|" + nx,
          "st|" + spk + "|" + t,
          "pos|" + spk + "|" + std::to_string(rel) + "|" + std::to_string(i == 0) + std::to_string(i == T - 1),
          "len|" + spk + "|" + len,
          "own|" + kind + "|" + std::to_string(bucket_count(std::max(0, own))),
          "oth|" + kind + "|" + std::to_string(bucket_count(other)),
          "tot|" + t + "|" + std::to_string(std::min(1, own + other)),
      };
      std::vector<std::int32_t> ids;
      for (const auto& f : feats) ids.push_back(static_cast<std::int32_t>(fnv1a64(f, seed) % B));
      out[u].push_back(ids);
    }
  }
  return out;
}

TEST(Compress, FeaturesAreThePlainFeatureStrings) {
  auto d = make_dialogue({{Speaker::customer, {"您好，请问我的订单[订单编号]什么时候发货呢？", "气死我了😡😡 3.5元 ok"}},
                          {Speaker::agent, {"亲亲，订单今天发货哦。", "", "您好"}},
                          {Speaker::customer, {"好的谢谢 :) 👩‍💻 [数字][数字]", "您好，请问"}},
                          {Speaker::agent, {"Hello! Order 123, thanks", "亲亲"}}});
  const Prepared p = prepare(d, lexicon());
  for (int buckets : {1, 7, 1000, kCompressBuckets}) {
    const auto fast = compress_features(p, buckets);
    const auto plain = plain_compress_features(p, buckets);
    ASSERT_EQ(fast.size(), plain.size());
    for (std::size_t u = 0; u < fast.size(); ++u) {
      ASSERT_EQ(fast[u].features.size(), plain[u].size() * kCompressFeatures) << "unit " << u;
      for (std::size_t t = 0; t < plain[u].size(); ++t) {
        const auto ids = fast[u].features_of(t);
        EXPECT_EQ(std::vector<std::int32_t>(ids.begin(), ids.end()), plain[u][t]) << "unit " << u << " token " << t;
      }
    }
  }
}

TEST(Compress, TargetsMarkTheTokensOnAReferenceLcs) {
  auto d = make_dialogue({{Speaker::customer, {"请问订单什么时候发货"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 64);
  const auto y = keep_targets(units[0], {"用户询问订单发货时间。"});
  ASSERT_EQ(y.size(), units[0].tokens.size());
  std::string kept;
  for (std::size_t i = 0; i < y.size(); ++i)
    if (y[i] > 0.5f) kept += units[0].tokens[i].text;
  // LCS of 请问订单什么时候发货 with 用户询问订单发货时间 is 问订单发货 (or an equal-length variant).
  EXPECT_EQ(kept.size(), std::string("问订单发货").size());
  EXPECT_NE(kept.find("订单"), std::string::npos);
}

TEST(Compress, DeletionDropsLowTokensButKeepsEmotionTermsAndNeverEmptiesAUnit) {
  auto d = make_dialogue({{Speaker::customer, {"亲，快递还没到，气死我了"}}, {Speaker::agent, {"好的呢"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  // Weights: every feature strongly "delete" (bias -10), so only forced tokens survive.
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;
  const std::string c0 = compress_unit(p.units[0], units[0], w, 0.5f);
  // The expressed emotion term is forced, and the negator is kept with the word it negates (deleting
  // it would leave "快递还到", deleting 到 a bare "没"); the rest goes.
  EXPECT_EQ(c0, "没到气死我了");
  // No forced token in the agent unit: nothing would remain, so the unit stays whole.
  EXPECT_EQ(compress_unit(p.units[1], units[1], w, 0.5f), p.units[1].text);
  // Threshold 0 is off.
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.0f), p.units[0].text);
  // Bias +10: everything kept, the text is unchanged.
  w.back() = 10.0f;
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), p.units[0].text);
  EXPECT_EQ(joined(units[0]), p.units[0].text);
}

// Weights that keep the given tokens alone: +30 on the features only they have, bias -10.
std::vector<float> weights_keeping(const UnitTokens& u, const std::set<std::string>& kept) {
  std::vector<float> w(998, 0.0f);
  w.back() = -10.0f;
  std::set<std::int32_t> others;
  for (std::size_t i = 0; i < u.tokens.size(); ++i)
    if (!kept.count(u.tokens[i].text)) others.insert(u.features_of(i).begin(), u.features_of(i).end());
  for (std::size_t i = 0; i < u.tokens.size(); ++i)
    if (kept.count(u.tokens[i].text))
      for (auto id : u.features_of(i))
        if (!others.count(id)) w[static_cast<std::size_t>(id)] += 30.0f;
  return w;
}

TEST(Compress, DeletionNeverLeavesASingleCharacter) {
  auto d = make_dialogue({{Speaker::agent, {"好的"}}, {Speaker::agent, {"好的呀"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 997);
  // "好的" cut to "的" reads as a cut word: the orphaned particle goes too, nothing is left, and the unit
  // is rendered whole; "好的呀" cut to "的呀" likewise loses its 的 and, one character left, is not offered.
  EXPECT_EQ(compress_unit(p.units[0], units[0], weights_keeping(units[0], {"的"}), 0.5f), "好的");
  EXPECT_EQ(compress_unit(p.units[1], units[1], weights_keeping(units[1], {"的", "呀"}), 0.5f), "");
  // A lone character that is an expressed emotion (an emoji) keeps its whole unit.
  auto e = make_dialogue({{Speaker::customer, {"快递还没到😡"}}});
  const Prepared pe = prepare(e, lexicon());
  const auto ue = compress_features(pe, 997);
  ASSERT_TRUE(pe.customer_expressed_emotion());
  std::vector<float> drop_all(998, 0.0f);
  drop_all.back() = -10.0f;
  // The emoji's clause stays whole (force_clause): the feeling is read in the customer's words.
  EXPECT_EQ(compress_unit(pe.units[0], ue[0], drop_all, 0.5f), "快递还没到😡");
  auto f = make_dialogue({{Speaker::customer, {"你好，快递还没到😡"}}});
  const Prepared pf = prepare(f, lexicon());
  const auto uf = compress_features(pf, 997);
  EXPECT_EQ(compress_unit(pf.units[0], uf[0], drop_all, 0.5f), "快递还没到😡");  // 你好， goes
}

TEST(Compress, GuardsKeepNegationsQuestionsAndNumbers) {
  auto d = make_dialogue({{Speaker::customer, {"你好，物流还没有更新，能不能查一下，订单[订单编号]发了吗"}},
                          {Speaker::customer, {"你好，这个什么时候到？谢谢"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;  // every unguarded token deleted
  // The negator with its verb, the whole A不A, the placeholder and the final 吗 with what it asks
  // about (发了吗, not 吗) stay.
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), "没有更新能不能查[订单编号]发了吗");
  auto more = make_dialogue({{Speaker::customer, {"你们说今天到，我想知道啥时候发，您有新订单嘛"}}});
  const Prepared pm = prepare(more, lexicon());
  const auto um = compress_features(pm, 97);
  // The company as subject, wanting to know, the question word and the 嘛 tag with its word stay.
  EXPECT_EQ(compress_unit(pm.units[0], um[0], w, 0.5f), "你们想知道啥时候订单嘛");
  // 要不 ("how about") keeps its 要: without it the 不 would negate the suggestion.
  auto how_about = make_dialogue({{Speaker::customer, {"要不姑娘留个电话吧"}}});
  const Prepared pa = prepare(how_about, lexicon());
  const auto ua = compress_features(pa, 97);
  EXPECT_EQ(compress_unit(pa.units[0], ua[0], w, 0.5f).rfind("要不", 0), 0u);
  // A clause-final 不 asks with its word: 对不, not 不 alone (就是了不 would negate).
  auto tag_bu = make_dialogue({{Speaker::customer, {"我就在这里等来取就是了对不"}}});
  const Prepared pb = prepare(tag_bu, lexicon());
  const auto ub = compress_features(pb, 97);
  const std::string kept = compress_unit(pb.units[0], ub[0], w, 0.5f);
  EXPECT_EQ(kept.substr(kept.size() - std::string("对不").size()), "对不") << kept;
  // A presuming 吧 stays with its word: "数据线里面有吧" must not become the assertion "数据线里面有".
  auto presume = make_dialogue({{Speaker::customer, {"那个数据线里面有吧，我看一下"}}});
  const Prepared pp = prepare(presume, lexicon());
  const auto up = compress_features(pp, 97);
  EXPECT_NE(compress_unit(pp.units[0], up[0], w, 0.5f).find("有吧"), std::string::npos);
  // Wanting is not doing, and hearsay is not fact: 想 before a verb stays, and so does 说 before 是.
  auto want = make_dialogue({{Speaker::customer, {"我想申请退货，说是从京东PC端找回来"}}});
  const Prepared pw = prepare(want, lexicon());
  const auto uw = compress_features(pw, 97);
  const std::string wanted = compress_unit(pw.units[0], uw[0], w, 0.5f);
  EXPECT_NE(wanted.find("想"), std::string::npos) << wanted;
  EXPECT_NE(wanted.find("说是"), std::string::npos) << wanted;
  // The customer's typo 把 for a clause-final 吧 is guarded as the 吧 is ("数据线里面有把" asks).
  auto typo = make_dialogue({{Speaker::customer, {"那个数据线里面有把，我看一下"}}});
  const Prepared pt = prepare(typo, lexicon());
  const auto ut = compress_features(pt, 97);
  EXPECT_NE(compress_unit(pt.units[0], ut[0], w, 0.5f).find("有把"), std::string::npos);
  // A hedge stays: "应该是付款了" is not the certain "是付款".
  auto hedge = make_dialogue({{Speaker::customer, {"我这边应该是付款了"}}});
  const Prepared ph = prepare(hedge, lexicon());
  const auto uh = compress_features(ph, 97);
  EXPECT_NE(compress_unit(ph.units[0], uh[0], w, 0.5f).find("应该"), std::string::npos);
  // A consequence after a warning or a supposition stays one: 就 after 别…, not the fact "活动作废了".
  auto warn = make_dialogue({{Speaker::customer, {"别到时不生效，我活动就作废了"}}});
  const Prepared pv = prepare(warn, lexicon());
  const auto uv = compress_features(pv, 97);
  const std::string warned = compress_unit(pv.units[0], uv[0], w, 0.5f);
  EXPECT_NE(warned.find("就作废"), std::string::npos) << warned;
  // Without a clause that supposes or warns before it, 就 may go ("我就想问一下" says 想问一下).
  auto plain = make_dialogue({{Speaker::customer, {"你好，我就想问一下物流"}}});
  const Prepared pl = prepare(plain, lexicon());
  const auto ul = compress_features(pl, 97);
  EXPECT_EQ(compress_unit(pl.units[0], ul[0], w, 0.5f).find("就"), std::string::npos);
  // A 吧 before a word of its clause ends a name the segmenter split (冰/吧: a fridge): it stays with
  // the letter before it, or 买的冰吧和电话 reads 买的冰和电话.
  auto name = make_dialogue({{Speaker::customer, {"我买的冰吧和电话什么时候能开发票"}}});
  const Prepared pn = prepare(name, lexicon());
  const auto un = compress_features(pn, 97);
  const std::string named = compress_unit(pn.units[0], un[0], w, 0.5f);
  EXPECT_NE(named.find("冰吧"), std::string::npos) << named;
  // 那…呢 asks (那我的订单呢), but not where the agent says what they will do for the customer: the 呢 of
  // 那小妹这边为您取消售后呢 is no question to keep.
  auto ne_guarded = [&](Speaker speaker, const char* text) {
    auto dialogue = make_dialogue({{speaker, {text}}});
    const Prepared pd = prepare(dialogue, lexicon());
    const auto ud = compress_features(pd, 97);
    const auto& toks = ud[0].tokens;
    for (std::size_t i = 0; i < toks.size(); ++i)
      if (toks[i].text == "呢") return ud[0].guarded[i] != 0;
    ADD_FAILURE() << "no 呢 in " << text;
    return false;
  };
  EXPECT_TRUE(ne_guarded(Speaker::customer, "那我的订单呢"));
  EXPECT_FALSE(ne_guarded(Speaker::agent, "那小妹这边为您取消售后呢"));
  // Only the question mark would be left: no content token, so the unit is rendered whole.
  EXPECT_EQ(compress_unit(p.units[1], units[1], w, 0.5f), p.units[1].text);
}

TEST(Compress, AFinalMaKeepsWhatItAsksAbout) {
  // "您看可以吗" had become "吗" (客服:帮申请专员处理，吗？); a pronoun there brings its verb (告诉你吗,
  // not 你吗).
  auto d = make_dialogue({{Speaker::agent, {"退款完成短信告知您，您看可以吗"}}, {Speaker::customer, {"现在告诉你吗"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;  // every unguarded token deleted
  const std::string agent = compress_unit(p.units[0], units[0], w, 0.5f);
  const std::string customer = compress_unit(p.units[1], units[1], w, 0.5f);
  EXPECT_NE(agent.find("可以吗"), std::string::npos) << agent;
  EXPECT_NE(customer.find("告诉你吗"), std::string::npos) << customer;
}

TEST(Compress, AYesNoQuestionKeepsItsModal) {
  // "地址错了能改吗" had become 询问地址错了改吗: can it be changed, not will you change it.
  auto d = make_dialogue({{Speaker::customer, {"地址错了能改吗"}}, {Speaker::customer, {"还需要退回去吗"}},
                          {Speaker::customer, {"这个可以退吗"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;  // every unguarded token deleted
  EXPECT_NE(compress_unit(p.units[0], units[0], w, 0.5f).find("能改吗"), std::string::npos);
  EXPECT_NE(compress_unit(p.units[1], units[1], w, 0.5f).find("需要退回去吗"), std::string::npos);
  EXPECT_NE(compress_unit(p.units[2], units[2], w, 0.5f).find("可以退吗"), std::string::npos);
}

TEST(Compress, ThePredicateADegreeWordLeadsToStays) {
  // CSDS val 480 and 606 had become "不是自营的退货就是。" and "是不是它库存比较。".
  auto d = make_dialogue({{Speaker::customer, {"不是自营的退货就是麻烦"}}, {Speaker::customer, {"是不是它库存比较紧张呀"}},
                          {Speaker::agent, {"是的呢您直接拒收就好哦"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;  // every unguarded token deleted
  EXPECT_NE(compress_unit(p.units[0], units[0], w, 0.5f).find("麻烦"), std::string::npos);
  EXPECT_NE(compress_unit(p.units[1], units[1], w, 0.5f).find("紧张"), std::string::npos);
  // A modal particle after the predicate is no predicate.
  EXPECT_EQ(compress_unit(p.units[2], units[2], weights_keeping(units[2], {"直", "接", "拒", "收", "就", "好"}), 0.5f),
            "直接拒收就好");
}

TEST(Compress, APrepositionGoesWithItsPronoun) {
  // 为您配送 without 您 is 为配送, a cut: the preposition and its pronoun stay or go together, their mean
  // deciding (为 kept and 您 dropped: both stay; both dropped: 让站点配送); inside a longer word (因为) it
  // is that word's.
  auto d = make_dialogue({{Speaker::agent, {"那我让站点为您配送"}}, {Speaker::agent, {"因为您没在家"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 997);
  EXPECT_EQ(compress_unit(p.units[0], units[0], weights_keeping(units[0], {"让", "站", "点", "为", "配", "送"}), 0.5f),
            "让站点为您配送");
  EXPECT_EQ(compress_unit(p.units[0], units[0], weights_keeping(units[0], {"让", "站", "点", "配", "送"}), 0.5f),
            "让站点配送");
  const std::string because = compress_unit(p.units[1], units[1], weights_keeping(units[1], {"因", "为", "没", "在", "家"}), 0.5f);
  EXPECT_EQ(because, "因为没在家");
}

TEST(Compress, LettersAgainstANumberAreOneCode) {
  // VB[数字] (a waybill), 5L, 24h: the letters are part of the number; "运单[数字]" and "[数字]没有底板"
  // had lost them.
  auto d = make_dialogue({{Speaker::customer, {"运单VB[数字]，发现5L没有底板，24h内联系"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;  // every unguarded token deleted
  const std::string kept = compress_unit(p.units[0], units[0], w, 0.5f);
  EXPECT_NE(kept.find("VB[数字]"), std::string::npos) << kept;
  EXPECT_NE(kept.find("5L"), std::string::npos) << kept;
  EXPECT_NE(kept.find("24h"), std::string::npos) << kept;
}

TEST(Compress, ASuppositionKeepsItsCondition) {
  // "如果是由配送原因导致的" must not become the fact "是配送原因导致的", nor "是会员的话…" "是会员…".
  auto d = make_dialogue({{Speaker::customer, {"如果是由配送原因导致的，是会员的话价格会更低"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 997);
  const std::string kept = compress_unit(
      p.units[0], units[0], weights_keeping(units[0], {"是", "配", "送", "原", "因", "导", "致", "会", "员", "价", "格", "低"}), 0.5f);
  EXPECT_NE(kept.find("如果是"), std::string::npos) << kept;
  EXPECT_NE(kept.find("会员的话"), std::string::npos) << kept;
  EXPECT_EQ(kept.find("由"), std::string::npos) << kept;  // what is not guarded still goes
}

TEST(Compress, DeletionKeepsOrDropsWholeWords) {
  auto d = make_dialogue({{Speaker::customer, {"怎么办"}}});
  const Prepared p = prepare(d, lexicon());
  auto units = compress_features(p, 97);
  ASSERT_EQ(units[0].tokens.size(), 3u);
  // One word of three characters whose middle one alone scores low: the word stays whole (mean keep
  // probability), where character deletion gave "么办" or "怎办".
  const std::vector<int> one_word = {0, 0, 0};
  units[0].words = one_word;
  std::vector<float> w(98, 0.0f);
  w.back() = 2.0f;
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), "怎么办");
  w.back() = -10.0f;  // the whole word goes: nothing remains, so the unit is rendered whole
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), "怎么办");
}

TEST(Compress, ADemonstrativeAndItsMeasureWordStayOrGoTogether) {
  auto d = make_dialogue({{Speaker::customer, {"这段时间你们很慢"}}});
  const Prepared p = prepare(d, lexicon());
  auto units = compress_features(p, 97);
  ASSERT_EQ(units[0].tokens.size(), 8u);
  // The words as the segmenter gives them: 这|段时间|你们|很|慢.
  const std::vector<int> words = {0, 1, 1, 1, 2, 2, 3, 4};
  units[0].words = words;
  // Every token's features are bucket 1 (keep), but 这's are bucket 0 (drop): alone, 这 would go and
  // leave 段时间.
  for (std::size_t t = 0; t < 8; ++t)
    std::fill_n(units[0].features.begin() + static_cast<std::ptrdiff_t>(t * kCompressFeatures), kCompressFeatures,
                t == 0 ? 0 : 1);
  std::vector<float> w(98, 0.0f);
  w[0] = -10.0f;
  w[1] = 10.0f;
  // Bound to the word after it, the demonstrative's low score is averaged with 段时间's: both stay.
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), "这段时间你们很慢");
  // Where the pair's mean falls below the threshold (这, 段 and 时 low), both go.
  for (std::size_t t = 1; t < 3; ++t)
    std::fill_n(units[0].features.begin() + static_cast<std::ptrdiff_t>(t * kCompressFeatures), kCompressFeatures, 0);
  EXPECT_EQ(compress_unit(p.units[0], units[0], w, 0.5f), "你们很慢");
}

// Deletion of a one-turn unit with the given word numbers, where the tokens in `low` score low (keep
// probability 0.0025) and the rest high: 12 features per token, bucket 0 drops and bucket 1 keeps, so
// a low token bound to a kept one averages above the 0.5 threshold.
std::string compress_with_low(const std::string& sentence, const std::vector<int>& words,
                              const std::vector<std::size_t>& low) {
  auto d = make_dialogue({{Speaker::customer, {sentence}}});
  const Prepared p = prepare(d, lexicon());
  auto units = compress_features(p, 97);
  EXPECT_EQ(units[0].tokens.size(), words.size()) << sentence;
  units[0].words = words;
  for (std::size_t t = 0; t < words.size(); ++t) {
    const bool drop = std::find(low.begin(), low.end(), t) != low.end();
    std::fill_n(units[0].features.begin() + static_cast<std::ptrdiff_t>(t * kCompressFeatures), kCompressFeatures,
                drop ? 0 : 1);
  }
  std::vector<float> w(98, 0.0f);
  w[0] = -0.5f;
  w[1] = 10.0f;
  return compress_unit(p.units[0], units[0], w, 0.5f);
}

TEST(Compress, AClauseFinalLeStaysOrGoesWithTheOneLetterWordItCompletes) {
  const auto compress = compress_with_low;
  // 说明书|扔|了: 了 alone scores low, and 扔 without it does not read ("说明书扔"); bound, both stay.
  EXPECT_EQ(compress("说明书扔了", {0, 0, 0, 1, 2}, {4}), "说明书扔了");
  // 这个|商品|怎么|了: 怎么了 asks "what is wrong"; 商品怎么 asks nothing.
  EXPECT_EQ(compress("这个商品怎么了", {0, 0, 1, 1, 2, 2, 3}, {0, 1, 6}), "商品怎么了");
  // A 了 before more of its clause, or after a longer word, is the model's to drop.
  EXPECT_EQ(compress("已经申请了", {0, 0, 1, 1, 2}, {4}), "已经申请");
  // Both low: the pair goes together, with no 了 left behind.
  EXPECT_EQ(compress("快递到了，谢谢", {0, 0, 1, 2, 3, 4, 4}, {2, 3}), "快递，谢谢");
}

TEST(Compress, AModalFurtherBackInAYesNoQuestionStays) {
  // 我|能|单独|取消|其中|一|单|吗 (te157 737 read 用户:询问单独取消其中一单吗。): 能 low, and guarded.
  EXPECT_EQ(compress_with_low("我能单独取消其中一单吗", {0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7}, {0, 1}), "能单独取消其中一单吗");
  // In another clause it is the model's: 我能去，在家吗 asks only whether someone is at home (the clause
  // cut to 去 then goes whole, drop_lone_letters).
  EXPECT_EQ(compress_with_low("我能去，在家吗", {0, 1, 2, 3, 4, 5, 6}, {0, 1}), "在家吗");
}

TEST(Compress, ADemonstrativeThatIdentifiesStays) {
  // 请问|是|这个|订单|吗 (te157 702 read 客服:请问是订单？, whether it is an order at all): 这个 low, guarded.
  EXPECT_EQ(compress_with_low("请问是这个订单吗", {0, 0, 1, 2, 2, 3, 3, 4}, {3, 4}), "请问是这个订单吗");
  // 之前|没有|出现|这种|情况 (te157 678 read 之前没有出现情况, nothing ever happened).
  EXPECT_EQ(compress_with_low("之前没有出现这种情况", {0, 0, 1, 1, 2, 2, 3, 3, 4, 4}, {6, 7}), "之前没有出现这种情况");
  // 是这样的 points at no thing: the model's to drop.
  EXPECT_EQ(compress_with_low("是这样的，订单生成后", {0, 1, 1, 2, 3, 4, 4, 5, 5, 6}, {0, 1, 2, 3, 4}), "订单生成后");
}

TEST(Compress, AColonBetweenAKeptLabelAndItsValueStays) {
  // 原因|:|客户|原因|退货 (CSDS val 120 read 原因客户原因退货): the colon low, both sides kept.
  EXPECT_EQ(compress_with_low("原因:客户原因退货", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {2}), "原因:客户原因退货");
  // With its label gone it goes too, and after 为 the copula joins them (CSDS val 389: 质保期为一年).
  EXPECT_EQ(compress_with_low("原因:客户原因退货", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {0, 1, 2}), "客户原因退货");
  EXPECT_EQ(compress_with_low("质保期为:一年", {0, 0, 0, 1, 2, 3, 4}, {4}), "质保期为一年");
}

TEST(Compress, WantingBeforeAVerbStaysUnlessTheUnitAsks) {
  // 我要|开|专用发票|的 (te157 742 read 用户:开专用发票的。): 我要 is one word to jieba, and guarded.
  EXPECT_EQ(compress_with_low("我要开专用发票的", {0, 0, 1, 2, 2, 2, 2, 3}, {0, 1}), "我要开专用发票的");
  // In a question, reported as 询问…, it is the model's: 询问退货怎么处理, not 询问我要退货怎么处理.
  EXPECT_EQ(compress_with_low("我要退货怎么处理", {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1}), "退货怎么处理");
}

TEST(Compress, AClauseFinalLeAfterAnActionVerbStaysWhereNothingElseSaysItIsDone) {
  // 这|两个|也|付款|了 (CSDS val 138 read 用户:这两个也付款。, a plan, not a payment made): 了 alone low.
  EXPECT_EQ(compress_with_low("这两个也付款了", {0, 1, 1, 2, 3, 3, 4}, {6}), "这两个也付款了");
  // 发票|开|错|了 (te157 742 read 用户:前几天发票开错。): a result complement keeps it too, and so does 开错 as
  // one word, a verb and its result that no dictionary lists.
  EXPECT_EQ(compress_with_low("发票开错了", {0, 0, 1, 2, 3}, {4}), "发票开错了");
  EXPECT_EQ(compress_with_low("发票开错了", {0, 0, 1, 1, 2}, {4}), "发票开错了");
  // With 已 the clause says it is done: 了 is the model's to drop, and so it is with its verb gone.
  EXPECT_EQ(compress_with_low("已经付款了", {0, 0, 1, 1, 2}, {4}), "已经付款");
  EXPECT_EQ(compress_with_low("这两个也付款了，谢谢", {0, 1, 1, 2, 3, 3, 4, 5, 6, 6}, {4, 5, 6}), "这两个也，谢谢");
}

TEST(Compress, AOneLetterVerbAndItsDirectionComplementStayOrGoTogether) {
  // 打|过去|的|一般|是|座机: 过去 scores low and 打 high. Alone, 打 would stay as "call", not "the calls
  // made (to you)": 打一般是座机. Bound, the pair's mean decides for both, and 的 goes with them.
  EXPECT_EQ(compress_with_low("打过去的一般是座机", {0, 1, 1, 2, 3, 3, 4, 5, 5}, {1, 2}), "一般是座机");
  // Only 去 low: the pair stays whole.
  EXPECT_EQ(compress_with_low("打过去的一般是座机", {0, 1, 1, 2, 3, 3, 4, 5, 5}, {2}), "打过去的一般是座机");
}

TEST(Compress, APrepositionAndThePersonAfterItStayOrGoTogether) {
  // 早上|跟|你们|说|了: 你们 is guarded and 跟 scores low. Without 跟 the company said it.
  EXPECT_EQ(compress_with_low("早上跟你们说了", {0, 0, 1, 2, 2, 3, 4}, {2}), "早上跟你们说了");
  // 会|与|您|联系: both low, both go ("会与联系" would dangle); only 与 low, both stay.
  EXPECT_EQ(compress_with_low("会与您联系", {0, 1, 2, 3, 3}, {1, 2}), "会联系");
  EXPECT_EQ(compress_with_low("会与您联系", {0, 1, 2, 3, 3}, {1}), "会与您联系");
  // A pronoun and a person word: 和|我|老妈 is one unit.
  EXPECT_EQ(compress_with_low("想和我老妈说", {0, 1, 2, 3, 3, 4}, {1, 2}), "想和我老妈说");
  // 给 is also the verb "give": it does not bind its pronoun (给|我|订单号 keeps 给 when 我 goes).
  EXPECT_EQ(compress_with_low("给我订单号", {0, 1, 2, 2, 2}, {1}), "给订单号");
}

TEST(Compress, GuardsKeepWhoItIsForHowAndAQuestionBeforeTheAddress) {
  // 本来|就是|给|朋友|买|的: without 给 the friend is the buyer.
  EXPECT_EQ(compress_with_low("本来就是给朋友买的", {0, 0, 1, 1, 2, 3, 3, 4, 5}, {0, 1, 4}), "就是给朋友买的");
  // 买|家电|怎样|分期付款: 怎样 asks how.
  EXPECT_EQ(compress_with_low("买家电怎样分期付款", {0, 1, 1, 2, 2, 3, 3, 3, 3}, {3, 4}), "买家电怎样分期付款");
  // 您|有|开通|白条|吗|亲: the 吗 before the address 亲 still closes the question.
  EXPECT_EQ(compress_with_low("您有开通白条吗亲", {0, 1, 2, 2, 3, 3, 4, 5}, {0, 6, 7}), "有开通白条吗");
}

TEST(Compress, AQuestionWordKeepsWhatItAsksAbout) {
  // 那|怎么|拿: 怎么 alone asks nothing.
  EXPECT_EQ(compress_with_low("那怎么拿", {0, 1, 1, 2}, {0, 3}), "怎么拿");
  // 有|什么|解决|办法|么: without 有 the question has no verb.
  EXPECT_EQ(compress_with_low("有什么解决办法么", {0, 1, 1, 2, 2, 3, 3, 4}, {0}), "有什么解决办法么");
  // 现在|多久|可以|拿: the verb after the modal in a clause that asks with a question word.
  EXPECT_EQ(compress_with_low("现在多久可以拿", {0, 0, 1, 1, 2, 2, 3}, {0, 1, 6}), "多久可以拿");
  // Past 给 and its person: 什么时候|能|给|我|退款 keeps 退款 and may lose 给我.
  EXPECT_EQ(compress_with_low("什么时候能给我退款", {0, 0, 0, 0, 1, 2, 3, 4, 4}, {5, 6, 7, 8}), "什么时候能退款");
  // Without a question word the modal's verb is the model's to drop.
  EXPECT_EQ(compress_with_low("明天可以拿", {0, 0, 1, 1, 2}, {4}), "明天可以");
}

TEST(Compress, TheRecipientAfterAVerbAndWhoWillDoItStay) {
  // 是|要|寄|给|我|的|吗: 给我 ends the clause before 的: without 我 it reads 寄给的吗.
  EXPECT_EQ(compress_with_low("是要寄给我的吗", {0, 1, 2, 3, 4, 5, 6}, {3, 4}), "是要寄给我的吗");
  // 会|退款|给|我: after a noun-like verb too (CSDS val 648 had "就会退款给。"); 您|电话|给|我: "电话给我" is
  // asking for the number (val 723 had "客服:电话，…").
  EXPECT_EQ(compress_with_low("会退款给我", {0, 1, 1, 2, 3}, {3, 4}), "会退款给我");
  EXPECT_EQ(compress_with_low("您电话给我", {0, 1, 1, 2, 3}, {0, 3, 4}), "电话给我");
  // After an amount it may go: 退|30|元|给|您.
  EXPECT_EQ(compress_with_low("退30元给您", {0, 1, 2, 3, 4}, {3, 4}), "退30元");
  // 会|给|您|寄|出: before a verb 给您 is a courtesy and may go.
  EXPECT_EQ(compress_with_low("会给您寄出", {0, 1, 2, 3, 3}, {1, 2}), "会寄出");
  // 那|我|来|联系: without 我 it is an order to the agent (来联系).
  EXPECT_EQ(compress_with_low("那我来联系", {0, 1, 2, 3, 3}, {0, 1}), "我来联系");
  // 我 as the object of a verb that says who did what to whom, and the verb, stay (CSDS val 748 had
  // 联系它说它帮签收了, 667 送明天不…): 联系|我|了|它|说 and 送|我|明天|不|在.
  EXPECT_EQ(compress_with_low("联系我了它说", {0, 0, 1, 2, 3, 4}, {0, 1, 2}), "联系我了它说");
  EXPECT_EQ(compress_with_low("送我明天不在", {0, 1, 2, 2, 3, 4}, {0, 1}), "送我明天不在");
  // 告知|我|链接 (te157 758 showed 客服:告知链接需要在线咨询技术人员: who was told is lost).
  EXPECT_EQ(compress_with_low("告知我链接", {0, 0, 1, 2, 2}, {2}), "告知我链接");
  // 请问|我|的|快递: the 我 after 请问 is the subject of the question and the model's to drop.
  EXPECT_EQ(compress_with_low("请问我的快递", {0, 0, 1, 2, 3, 3}, {0, 1, 2, 3}), "快递");
}

TEST(Compress, WhoSaidItStaysWithSaid) {
  // 他|说|会|返回: without 他 the customer says it.
  EXPECT_EQ(compress_with_low("他说会返回", {0, 1, 2, 3, 3}, {0, 1}), "他说会返回");
  // 快递|说|周二|送货
  EXPECT_EQ(compress_with_low("快递说周二送货", {0, 0, 1, 2, 2, 3, 3}, {0, 1, 2}), "快递说周二送货");
  // The customer's own 我说 is the model's to shorten.
  EXPECT_EQ(compress_with_low("我说周二送货", {0, 1, 2, 2, 3, 3}, {0, 1}), "周二送货");
}

TEST(Compress, ACountInWordsIsANumber) {
  // 每次|只能|申请|一|件|商品: the count goes with its measure word, and neither may go.
  EXPECT_EQ(compress_with_low("每次只能申请一件商品", {0, 0, 1, 1, 2, 2, 3, 4, 5, 5}, {6, 7}), "每次只能申请一件商品");
  // A demonstrative is no count: 这|件 may go (with the word after it, as above).
  EXPECT_EQ(compress_with_low("这件商品不错", {0, 1, 2, 2, 3, 3}, {0, 1}), "商品不错");
}

TEST(Compress, OnlyThenAndWhichOneStay) {
  // 财务|才|可以|审核 (te157 739 showed 财务可以审核): 才 says it waits for something; 今天|才|收到|货 is a
  // complaint only with it.
  EXPECT_EQ(compress_with_low("财务才可以审核", {0, 0, 1, 2, 2, 3, 3}, {2}), "财务才可以审核");
  EXPECT_EQ(compress_with_low("今天才收到货", {0, 0, 1, 2, 2, 3}, {2}), "今天才收到货");
  // 刚才 is a word of its own, a time the model may drop: 刚才|的|退款.
  EXPECT_EQ(compress_with_low("刚才的退款", {0, 0, 1, 2, 2}, {0, 1, 2}), "退款");
  // 取消|其中|一个，另外|一个|也|会|取消 (te157 711 showed 取消一个，一个也会关联取消).
  EXPECT_EQ(compress_with_low("取消其中一个，另外一个也取消", {0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7}, {2, 3, 7, 8}),
            "取消其中一个，另外一个也取消");
  // As a connective 另外 may go: 另外|，|发票|呢.
  EXPECT_EQ(compress_with_low("另外，发票怎么开", {0, 0, 1, 2, 2, 3, 3, 4}, {0, 1, 2}), "发票怎么开");
}

TEST(Compress, WhichOneAVerbIsAboutStays) {
  // 不|知道|选|那个|了 (CSDS val 724 showed 不知道选): the object that ends the clause stays with its verb.
  // The third argument lists the low tokens: here 选, 那, 个 and 了.
  EXPECT_EQ(compress_with_low("不知道选那个了", {0, 1, 1, 2, 3, 3, 4}, {3, 4, 5, 6}), "不知道选那个");
  EXPECT_EQ(compress_with_low("好的我要这个", {0, 0, 1, 2, 3, 3}, {0, 1, 4, 5}), "我要这个");
  // After 的 it is no verb's object: the model may drop it.
  EXPECT_EQ(compress_with_low("换货的那个", {0, 0, 1, 2, 2}, {3, 4}), "换货的");
}

TEST(Compress, GeiOrWeiForAPronounBeforeAVerbStaysOrGoesWithIt) {
  // 会|给|您|催促|的 (te157 695 showed 会给催促的): 给 for the customer stays or goes with its 您.
  EXPECT_EQ(compress_with_low("会给您催促的", {0, 1, 2, 3, 3, 4}, {1, 2}), "会催促的");
  EXPECT_EQ(compress_with_low("会给您催促的", {0, 1, 2, 3, 3, 4}, {2}), "会给您催促的");
  // 快递|员|给|我|打电话: jieba tags 打电话 l, not v, but its 打 is a verb (te157 695 showed 快递员给打电话).
  EXPECT_EQ(compress_with_low("快递员给我打电话", {0, 0, 1, 2, 3, 4, 4, 4}, {4}), "快递员给我打电话");
  EXPECT_EQ(compress_with_low("快递员给我打电话", {0, 0, 1, 2, 3, 4, 4, 4}, {3, 4}), "快递员打电话");
  // 正在|为|您|查询 (te157 702 showed 客服:正在为查询。): 为 for the customer goes the same way.
  EXPECT_EQ(compress_with_low("正在为您查询", {0, 0, 1, 2, 3, 3}, {3}), "正在为您查询");
  EXPECT_EQ(compress_with_low("正在为您查询", {0, 0, 1, 2, 3, 3}, {2, 3}), "正在查询");
}

TEST(Compress, AKeptBangKeepsThePersonItHelps) {
  // 已经|帮|您|改好|了 (te157 727 showed 客服:已经帮改好了。, a cut): 您 low, 帮 kept.
  EXPECT_EQ(compress_with_low("已经帮您改好了", {0, 0, 1, 2, 3, 3, 4}, {3}), "已经帮您改好了");
  // 帮 low goes alone: who acts is the model's (readers preferred 帮催促配送 to 催促配送).
  EXPECT_EQ(compress_with_low("已经帮您改好了", {0, 0, 1, 2, 3, 3, 4}, {2, 3}), "已经改好了");
  // 帮忙 is a word of its own, and a pronoun with no verb kept after it stays the model's.
  EXPECT_EQ(compress_with_low("帮您，谢谢", {0, 1, 2, 3, 3}, {1}), "帮，谢谢");
}

TEST(Compress, WhoDoesItWithWhomAndACheckAskedForStay) {
  // 您|跟|配送|小哥 (te157 760 showed 只能到时候配送小哥能否协商: the courier, not the customer, would negotiate).
  EXPECT_EQ(compress_with_low("只能您跟配送小哥协商", {0, 0, 1, 2, 3, 3, 4, 4, 5, 5}, {2, 3}), "只能您跟配送小哥协商");
  // 帮|您|跟 (CSDS val 388 read 您跟站点负责人联系, as if the customer were to call): 帮 stays with them.
  EXPECT_EQ(compress_with_low("帮您跟站点联系", {0, 1, 2, 3, 3, 4, 4}, {0, 1, 2}), "帮您跟站点联系");
  // 发给|我|看 (CSDS val 308 read 先发给看嘛): the one it is sent to stays.
  EXPECT_EQ(compress_with_low("先发给我看嘛", {0, 1, 1, 2, 3, 4}, {3}), "先发给我看嘛");
  // 跟进 (follow up) is no preposition: its 您 may go.
  EXPECT_EQ(compress_with_low("此单您跟进", {0, 1, 2, 3, 3}, {2}), "此单跟进");
  // 麻烦|看|下|是|什么|问题 (te157 765 showed 用户:是什么问题, which asks the agent instead of asking them to look).
  EXPECT_EQ(compress_with_low("麻烦看下是什么问题", {0, 0, 1, 2, 3, 4, 4, 5, 5}, {0, 1, 2, 3}), "看下是什么问题");
}

TEST(Compress, CheckingWhatIsMeantKeepsItsYou) {
  // 亲|您|是|要|退货 (te157 693 showed 客服:是要退货。, a statement).
  EXPECT_EQ(compress_with_low("亲您是要退货", {0, 1, 2, 3, 4, 4}, {0, 1, 2}), "您是要退货");
}

TEST(Compress, NoClauseOpensWithMe) {
  // 我|么|收到 (the typo for 我没收到; te157 633 showed 么收到): the word before a clause-opening 么 comes back.
  EXPECT_EQ(compress_with_low("我么收到", {0, 1, 2, 2}, {0}), "我么收到");
  EXPECT_EQ(compress_with_low("好的，怎么办", {0, 0, 1, 2, 2, 3}, {0, 1, 2}), "怎么办");
}

TEST(Compress, AndBetweenTwoThingsStaysOrGoesWithTheSecond) {
  // 只有|手机|跟|包装 (te157 750 showed 只有手机包装, the phone's box): 跟 and 包装 stay or go together.
  EXPECT_EQ(compress_with_low("只有手机跟包装", {0, 0, 1, 1, 2, 3, 3}, {4}), "只有手机跟包装");
  EXPECT_EQ(compress_with_low("只有手机跟包装", {0, 0, 1, 1, 2, 3, 3}, {4, 5, 6}), "只有手机");
}

TEST(Compress, NoDoublingTheSpeakerNeverWrote) {
  // 改|一下|改成|不|退|啦 (te157 624 showed 可不可以改改成不退啦): the deletion would join 改 to 改成.
  EXPECT_EQ(compress_with_low("改一下改成不退啦", {0, 1, 1, 2, 2, 3, 4, 5}, {1, 2}), "改一下改成不退啦");
  // 找|也|找不到 (CSDS val 543 showed 找找不到).
  EXPECT_EQ(compress_with_low("找也找不到", {0, 1, 2, 2, 2}, {1}), "找也找不到");
  // Without a doubling the deletion stands: 改|一下|地址.
  EXPECT_EQ(compress_with_low("改一下地址", {0, 1, 1, 2, 2}, {1, 2}), "改地址");
}

TEST(Compress, AnAndThenNeStaysAsTheQuestion) {
  // 打开|之后|呢: without 呢 the customer's "and after opening it?" reads as a statement.
  EXPECT_EQ(compress_with_low("打开之后呢", {0, 0, 1, 1, 2}, {4}), "打开之后呢");
  // A 呢 that softens a statement is the model's to drop.
  EXPECT_EQ(compress_with_low("已经发货了呢", {0, 0, 1, 1, 2, 3}, {5}), "已经发货了");
}

TEST(Compress, ABaConstructionKeepsItsVerb) {
  // 那|你|先|把|订单号|发给|我: the object of 把 comes before its verb; 把订单号 alone says nothing.
  EXPECT_EQ(compress_with_low("那你先把订单号发给我", {0, 1, 2, 3, 4, 4, 4, 5, 5, 6}, {0, 1, 2, 7, 8, 9}), "把订单号发给我");
  // A clause-final 把 is the typo for 吧 (is_tag_particle): no construction follows, and the rest may go.
  EXPECT_EQ(compress_with_low("数据线里面有把，谢谢", {0, 0, 0, 1, 1, 2, 3, 4, 5, 5}, {8, 9}), "数据线里面有把，");
}

TEST(Compress, HelpingKeepsWhatIsDone) {
  // 帮|我|看下|这个|订单: 帮订单 says nothing of what the customer asked for; the verb after the pronoun stays,
  // and 我 with 帮 (AKeptBangKeepsThePersonItHelps: 帮看下订单 reads as a cut).
  EXPECT_EQ(compress_with_low("帮我看下这个订单", {0, 1, 2, 2, 3, 3, 4, 4}, {1, 2, 3, 4, 5}), "帮我看下订单");
}

TEST(Compress, ANumberInDigitsKeepsItsUnit) {
  // 签收|起|[数字]|天内|哈: the placeholder stays, and so does its unit (how many days).
  EXPECT_EQ(compress_with_low("签收起[数字]天内哈", {0, 0, 1, 2, 3, 3, 4}, {4, 5, 6}), "签收起[数字]天内");
  // 退|30|元: digits too.
  EXPECT_EQ(compress_with_low("退30元给您", {0, 1, 2, 3, 4}, {2, 3, 4}), "退30元");
}

TEST(Compress, AClauseCutToOneLetterGoesWhole) {
  // 如果|您|购买|的，到|您|那面，配送|师傅|会|打电话: the middle clause keeps only 到, which says nothing.
  EXPECT_EQ(compress_with_low("如果您购买的，到您那面，配送师傅会打电话", {0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 12},
                              {2, 5, 8, 9, 10}),
            "如果购买，配送师傅会打电话");
  // A one-letter clause as written stays ("是的，有，屏幕碎了" keeps its 有).
  EXPECT_EQ(compress_with_low("有，屏幕碎了", {0, 1, 2, 2, 3, 4}, {}), "有，屏幕碎了");
}

TEST(Compress, AClauseCutToOneNounGoesWhole) {
  // 您|这个|订单|我|先|为|您|跟进，送达|站点|后|派送: the first clause keeps only 订单, a thing with nothing
  // said of it (CSDS val 745 had "…明天可以收到，订单，送达站点后第一时间派送").
  EXPECT_EQ(compress_with_low("您这个订单我先为您跟进，送达站点后派送",
                              {0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12}, {0, 1, 2, 5, 6, 7, 8, 9, 10}),
            "送达站点后派送");
  // A verb kept alone still says what is done: 这边|给|您|补发|呢，明天|到.
  EXPECT_EQ(compress_with_low("这边给您补发呢，明天到", {0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7}, {0, 1, 2, 3, 6}), "补发，明天到");
  // The steps of a path are no clauses: 在|我|的|京东—客户服务 keeps 京东 with the step after it.
  EXPECT_EQ(compress_with_low("在我的京东—客户服务", {0, 1, 2, 3, 3, 4, 5, 5, 5, 5}, {1, 2}), "在京东—客户服务");
  // A noun that is all the unit keeps stays: the unit is not emptied (我|的|手提包).
  EXPECT_EQ(compress_with_low("我的手提包", {0, 1, 2, 2, 2}, {0, 1}), "手提包");
}

TEST(Compress, TheAgentsSideStaysTheAgents) {
  // The customer's 你|这边|联系|下|客户|吧: without 你, 这边 is the customer's own side (CSDS val 720).
  EXPECT_EQ(compress_with_low("你这边联系下客户吧", {0, 1, 1, 2, 2, 3, 4, 4, 5}, {0, 1, 2, 5}), "你联系客户吧");
  // 这|面 is this side as 这边 is: it is not cut to 面 (CSDS val 746 had "客服:面查看已经在配送了").
  EXPECT_EQ(compress_with_low("这面查看已经在配送了", {0, 1, 2, 2, 3, 3, 4, 5, 5, 6}, {0}), "这面查看已经在配送了");
}

TEST(Compress, EnglishSpacingIsRebuiltAndAddressingDropped) {
  auto d = make_dialogue({{Speaker::customer, {"@AppleSupport my phone keeps crashing https://t.co/abc please help"}},
                          {Speaker::agent, {"@jane https://t.co/xyz"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = unit_tokens(p);
  EXPECT_EQ(drop_addressing(p.units[0], units[0]), "my phone keeps crashing please help");
  EXPECT_EQ(drop_addressing(p.units[1], units[1]), "");  // nothing but addressing: never selected
  // Punctuation that a deletion leaves leading or doubled goes too.
  auto d2 = make_dialogue({{Speaker::agent, {"@jane, please DM us"}}, {Speaker::agent, {"ok!! @jane! thanks"}}});
  const Prepared p2 = prepare(d2, lexicon());
  const auto units2 = unit_tokens(p2);
  EXPECT_EQ(drop_addressing(p2.units[0], units2[0]), "please DM us");
  EXPECT_EQ(drop_addressing(p2.units[1], units2[1]), "ok!! thanks");
  // A mention or link a word takes as its object is part of the sentence: no "from ." gap.
  auto d4 = make_dialogue({{Speaker::customer, {"@Tesco Got an offer code from @AmazonHelp today, see https://t.co/q for it"}}});
  const Prepared p4 = prepare(d4, lexicon());
  const auto units4 = unit_tokens(p4);
  EXPECT_EQ(drop_addressing(p4.units[0], units4[0]), "Got an offer code from AmazonHelp today, see the link for it");
  // "w/" is "with": its mention stays, or "w/" dangles ("engage w/ However, …").
  auto dw = make_dialogue({{Speaker::customer, {"Eager to get to DTW to engage w/@389184."}}});
  const Prepared pw = prepare(dw, lexicon());
  EXPECT_EQ(drop_addressing(pw.units[0], unit_tokens(pw)[0]), "Eager to get to DTW to engage w/@389184.");
  // A mention with words on both sides is part of the sentence ("How can @SW_Help sell"); an anonymized
  // handle keeps its @; a colon left at the end by a dropped link becomes a full stop.
  auto d6 = make_dialogue({{Speaker::customer, {"How can @SW_Help sell so many tickets"}},
                           {Speaker::customer, {"Got an offer code from @116057."}},
                           {Speaker::agent, {"You can claim compensation here: https://t.co/abc"}},
                           {Speaker::customer, {"Hey @jane it would be nice"}}});
  const Prepared p6 = prepare(d6, lexicon());
  const auto units6 = unit_tokens(p6);
  EXPECT_EQ(drop_addressing(p6.units[0], units6[0]), "How can SW_Help sell so many tickets");
  EXPECT_EQ(drop_addressing(p6.units[1], units6[1]), "Got an offer code from @116057.");
  EXPECT_EQ(drop_addressing(p6.units[2], units6[2]), "You can claim compensation online.");
  EXPECT_EQ(drop_addressing(p6.units[3], units6[3]), "It would be nice");  // the greeting goes too (below)
  // A colon before a dropped link inside the unit: the sentence goes on in lower case without it, and a
  // capital after the link starts a new sentence (TweetSumm "reaching out to chat: support").
  auto colon = make_dialogue({{Speaker::agent, {"Let's have you try reaching out to chat: https://t.co/a support as they can help."}},
                              {Speaker::agent, {"Let's work through the steps here: https://t.co/b DM us if the issue continues."}}});
  const Prepared pcolon = prepare(colon, lexicon());
  const auto ucolon = unit_tokens(pcolon);
  EXPECT_EQ(drop_addressing(pcolon.units[0], ucolon[0]), "Let's have you try reaching out to chat support as they can help.");
  EXPECT_EQ(drop_addressing(pcolon.units[1], ucolon[1]), "Let's work through the steps online. DM us if the issue continues.");
  // An opening mention that runs on into a lower-case verb is the subject; before a capital it addresses.
  auto subject = make_dialogue({{Speaker::customer, {"@116021 is really getting on my nerves"}},
                                {Speaker::customer, {"@Delta Is this normal?"}},
                                {Speaker::customer, {"@Delta"}}});
  const Prepared ps = prepare(subject, lexicon());
  const auto us = unit_tokens(ps);
  EXPECT_EQ(drop_addressing(ps.units[0], us[0]), "@116021 is really getting on my nerves");
  EXPECT_EQ(drop_addressing(ps.units[1], us[1]), "Is this normal?");
  EXPECT_EQ(drop_addressing(ps.units[2], us[2]), "");
  // Mentions in a row inside a sentence are one name, the last of the run ("if you think is the
  // worst" had a hole where both went).
  auto run = make_dialogue({{Speaker::customer, {"Raise your hand if you think @115725 @VerizonSupport is the worst"}}});
  const Prepared prun = prepare(run, lexicon());
  const auto urun = unit_tokens(prun);
  EXPECT_EQ(drop_addressing(prun.units[0], urun[0]), "Raise your hand if you think VerizonSupport is the worst");
  // The comma before a dropped vocative goes with it when a question mark follows (it used to read
  // "What gives, ?").
  auto d5 = make_dialogue({{Speaker::customer, {"What gives, @AppleSupport?"}}, {Speaker::customer, {"Why, @jane ?"}}});
  const Prepared p5 = prepare(d5, lexicon());
  const auto units5 = unit_tokens(p5);
  EXPECT_EQ(drop_addressing(p5.units[0], units5[0]), "What gives?");
  EXPECT_EQ(drop_addressing(p5.units[1], units5[1]), "Why?");
  // Punctuation that stood together in the source stays, and so does an opening bracket or quote at
  // the start ("(and related costs)" used to lose its full stop, a quoted name its opening quote).
  auto d3 = make_dialogue({{Speaker::customer, {"@azure I need help (and related costs)."}},
                           {Speaker::customer, {"@spotify \"Create playlist\" is broken?!"}}});
  const Prepared p3 = prepare(d3, lexicon());
  const auto units3 = unit_tokens(p3);
  EXPECT_EQ(drop_addressing(p3.units[0], units3[0]), "I need help (and related costs).");
  EXPECT_EQ(drop_addressing(p3.units[1], units3[1]), "\"Create playlist\" is broken?!");
}

TEST(Compress, EnglishSalutationsAndSignOffsAreAddressingToo) {
  auto d = make_dialogue({{Speaker::agent, {"@jane Hi there, please DM us your order number ^XS"}},
                          {Speaker::agent, {"Hello Shayc! We have fixed it -AB"}},
                          {Speaker::customer, {"Hi, this is ridiculous"}},
                          {Speaker::customer, {"hi there is a problem with my bill"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = unit_tokens(p);
  // The word after a dropped salutation starts the sentence.
  EXPECT_EQ(drop_addressing(p.units[0], units[0]), "Please DM us your order number");
  EXPECT_EQ(drop_addressing(p.units[1], units[1]), "We have fixed it");
  EXPECT_EQ(drop_addressing(p.units[2], units[2]), "This is ridiculous");
  // Without a mark the greeting ends where the sentence starts; "there" then belongs to the sentence.
  EXPECT_EQ(drop_addressing(p.units[3], units[3]), "There is a problem with my bill");
  auto bare = make_dialogue({{Speaker::customer, {"Hey it would be nice if it stayed minimized"}},
                             {Speaker::customer, {"Hi guys can I get a refund?"}},
                             {Speaker::customer, {"Hi I need help"}},
                             {Speaker::customer, {"Hey!"}}});
  const Prepared pb = prepare(bare, lexicon());
  const auto ub = unit_tokens(pb);
  EXPECT_EQ(drop_addressing(pb.units[0], ub[0]), "It would be nice if it stayed minimized");
  EXPECT_EQ(drop_addressing(pb.units[1], ub[1]), "Can I get a refund?");
  EXPECT_EQ(drop_addressing(pb.units[2], ub[2]), "I need help");
  EXPECT_EQ(drop_addressing(pb.units[3], ub[3]), "");  // nothing but a greeting says nothing
  // A unit that is only a sign-off says nothing (empty: never selected), whatever the name's length;
  // after other words a longer name is one when its mark is written onto it (below).
  auto d2 = make_dialogue({{Speaker::agent, {"^CAR"}}, {Speaker::agent, {"-Chris"}},
                           {Speaker::agent, {"We fixed it -Chris"}}, {Speaker::agent, {"-"}}});
  const Prepared p2 = prepare(d2, lexicon());
  const auto units2 = unit_tokens(p2);
  EXPECT_EQ(drop_addressing(p2.units[0], units2[0]), "");
  EXPECT_EQ(drop_addressing(p2.units[1], units2[1]), "");
  EXPECT_EQ(drop_addressing(p2.units[2], units2[2]), "We fixed it");
  // The digit of a thread counter the data split off ("1/2 ^XS" kept as "1 ^XS") goes with the sign-off;
  // a number that is not before a sign-off is the sentence's.
  auto counted = make_dialogue({{Speaker::agent, {"Please DM us a full description of the issue you  1 ^XS"}},
                                {Speaker::agent, {"We can offer you 2"}}});
  const Prepared pc = prepare(counted, lexicon());
  const auto uc = unit_tokens(pc);
  EXPECT_EQ(drop_addressing(pc.units[0], uc[0]), "Please DM us a full description of the issue you");
  EXPECT_EQ(drop_addressing(pc.units[1], uc[1]), pc.units[1].text);
  EXPECT_EQ(drop_addressing(p2.units[3], units2[3]), p2.units[3].text);
  // A longer name is a sign-off when its mark is written onto it after a space or a full stop; a
  // hyphen inside a word is not a mark.
  auto named = make_dialogue({{Speaker::agent, {"We can see what the situation is.-Chris"}},
                              {Speaker::agent, {"We will look into it -Leighton"}},
                              {Speaker::agent, {"Try our new e-Reader"}},
                              {Speaker::agent, {"It is on the way - Delivery"}}});
  const Prepared pn = prepare(named, lexicon());
  const auto un = unit_tokens(pn);
  EXPECT_EQ(drop_addressing(pn.units[0], un[0]), "We can see what the situation is.");
  EXPECT_EQ(drop_addressing(pn.units[1], un[1]), "We will look into it");
  EXPECT_EQ(drop_addressing(pn.units[2], un[2]), "Try our new e-Reader");
  EXPECT_EQ(drop_addressing(pn.units[3], un[3]), "It is on the way - Delivery");  // a spaced dash and a word
  // Spotify's agents sign with a slash after a space, onto two to four capitals ("… here /CH"); a slash
  // between words is no mark.
  auto slash = make_dialogue({{Speaker::agent, {"There's info about Spotify content here: https://t.co/0 /CH"}},
                              {Speaker::agent, {"We passed it on to our devs /MC"}},
                              {Speaker::agent, {"Is it the TV/DVD"}}});
  const Prepared psl = prepare(slash, lexicon());
  const auto usl = unit_tokens(psl);
  EXPECT_EQ(drop_addressing(psl.units[0], usl[0]), "There's info about Spotify content online.");
  EXPECT_EQ(drop_addressing(psl.units[1], usl[1]), "We passed it on to our devs");
  EXPECT_EQ(drop_addressing(psl.units[2], usl[2]), psl.units[2].text);
}

TEST(Compress, EnglishThreadCountersAreAddressingToo) {
  auto d = make_dialogue({{Speaker::agent, {"@124579 2/2 know your account number and details?"}},
                          {Speaker::agent, {"No worries though - we got your back ;) 1/3"}},
                          {Speaker::agent, {"Call us when you can (1/2)^CB"}},
                          {Speaker::agent, {"2/3"}},
                          {Speaker::agent, {"(2/2) thanks for waiting ^JA"}},
                          {Speaker::customer, {"Open 24/7 and still closed on 9/15, rated it 0/10"}},
                          {Speaker::customer, {"It takes 1 1/2 hours"}},
                          {Speaker::customer, {"I needed it 1/2"}}});
  const Prepared p = prepare(d, lexicon());
  const auto u = unit_tokens(p);
  ASSERT_EQ(p.units.size(), 8u);
  // An opening counter goes, and the next word starts the sentence.
  EXPECT_EQ(drop_addressing(p.units[0], u[0]), "Know your account number and details?");
  EXPECT_EQ(drop_addressing(p.units[1], u[1]), "No worries though - we got your back ;)");
  EXPECT_EQ(drop_addressing(p.units[2], u[2]), "Call us when you can");
  EXPECT_EQ(drop_addressing(p.units[3], u[3]), "");  // nothing but a counter: never selected
  EXPECT_EQ(drop_addressing(p.units[4], u[4]), "Thanks for waiting");
  // Not counters: times, dates, ratings out of ten, fractions inside a sentence.
  EXPECT_EQ(drop_addressing(p.units[5], u[5]), p.units[5].text);
  EXPECT_EQ(drop_addressing(p.units[6], u[6]), p.units[6].text);
  // Either speaker threads long tweets.
  EXPECT_EQ(drop_addressing(p.units[7], u[7]), "I needed it");
}

TEST(Compress, EnglishThanksWithANameClosesAnAgentUnit) {
  auto d = make_dialogue({{Speaker::agent, {"TY - Robyn"}},
                          {Speaker::agent, {"Kindly apply payments through the card.Thanks-Mich"}},
                          {Speaker::agent, {"Ty - Marian 2/2"}},
                          {Speaker::agent, {"We have passed it on. Kind regards, Mahindra."}},
                          {Speaker::agent, {"Thanks for waiting, Sam will call you"}},
                          {Speaker::agent, {"Thank you"}},
                          {Speaker::customer, {"Thanks - Emily"}},
                          {Speaker::agent, {"Kind Regards - Rob 4/4"}},
                          {Speaker::agent, {"- Allyn 2/2"}},
                          {Speaker::agent, {"Chris 2/2"}},
                          {Speaker::agent, {"Done"}}});
  const Prepared p = prepare(d, lexicon());
  const auto u = unit_tokens(p);
  ASSERT_EQ(p.units.size(), 11u);
  // A name left alone by the counter signs off; a word alone with nothing peeled is the unit.
  EXPECT_EQ(drop_addressing(p.units[9], u[9]), "");
  EXPECT_EQ(drop_addressing(p.units[10], u[10]), "Done");
  // Counter, sign-off, then the thanks whose name the sign-off took: nothing is left.
  EXPECT_EQ(drop_addressing(p.units[7], u[7]), "");
  EXPECT_EQ(drop_addressing(p.units[8], u[8]), "");
  EXPECT_EQ(drop_addressing(p.units[0], u[0]), "");  // nothing but a sign-off: never selected
  EXPECT_EQ(drop_addressing(p.units[1], u[1]), "Kindly apply payments through the card.");
  EXPECT_EQ(drop_addressing(p.units[2], u[2]), "");  // counter and sign-off, peeled in either order
  EXPECT_EQ(drop_addressing(p.units[3], u[3]), "We have passed it on.");
  // Not a sign-off: the thanks is not followed by a name at the end, or it is the customer's.
  EXPECT_EQ(drop_addressing(p.units[4], u[4]), p.units[4].text);
  EXPECT_EQ(drop_addressing(p.units[5], u[5]), p.units[5].text);
  EXPECT_EQ(drop_addressing(p.units[6], u[6]), p.units[6].text);
}

TEST(Compress, TrainingLearnsASeparableRule) {
  // Feature 1 means "keep", feature 2 means "delete"; a token's other kCompressFeatures - 1
  // features (3, 4, ...) are noise on both.
  const int buckets = 3 + static_cast<int>(kCompressFeatures) - 1;
  auto token = [](std::int32_t signal) {
    std::vector<std::int32_t> ids = {signal};
    for (std::int32_t noise = 3; ids.size() < kCompressFeatures; ++noise) ids.push_back(noise);
    return ids;
  };
  std::vector<KeepExample> data;
  for (int i = 0; i < 200; ++i) {
    data.push_back({token(1), 1.0f});
    data.push_back({token(2), 0.0f});
  }
  const auto w = train_compressor(data, buckets, CompressTrainOptions{});
  ASSERT_EQ(w.size(), static_cast<std::size_t>(buckets) + 1);
  UnitTokens keep, drop;
  keep.features = token(1);
  drop.features = token(2);
  EXPECT_GT(keep_probabilities(keep, w)[0], 0.9f);
  EXPECT_LT(keep_probabilities(drop, w)[0], 0.1f);
  EXPECT_EQ(train_compressor(data, buckets, CompressTrainOptions{}), w);  // deterministic
  drop.features = token(buckets);  // outside [0, buckets)
  EXPECT_THROW(keep_probabilities(drop, w), InvalidArgument);
  drop.features = {0, 1};  // not kCompressFeatures ids per token
  EXPECT_THROW(keep_probabilities(drop, w), InvalidArgument);
  EXPECT_THROW(train_compressor(data, 0, CompressTrainOptions{}), InvalidArgument);
}

}  // namespace
}  // namespace kessel::summarize
