#include "summarize/compress.h"
#include "summarize/compress_zh.h"

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
  // Done is not to do: 已 stays with the verb it marks, past 为您 (the sample's "已为您查询" had become
  // "查询"); the particle 而已 is no such 已.
  auto done = make_dialogue({{Speaker::agent, {"已为您查询，包裹在分拣中心滞留"}}});
  const Prepared pd = prepare(done, lexicon());
  const auto ud = compress_features(pd, 97);
  const std::string done_kept = compress_unit(pd.units[0], ud[0], w, 0.5f);
  EXPECT_TRUE(done_kept.starts_with("已") && done_kept.find("查询") != std::string::npos) << done_kept;
  const std::vector<char> guards = meaning_guards(pd.unit_tokens[0], {}, false);
  EXPECT_TRUE(guards[0] && guards[3]);   // 已 and 查
  EXPECT_FALSE(guards[1] || guards[2]);  // 为您 may go as a pair
  auto merely = make_dialogue({{Speaker::agent, {"这个只是一个周期而已的哦"}}});
  const Prepared pm2 = prepare(merely, lexicon());
  const std::vector<char> merely_guards = meaning_guards(pm2.unit_tokens[0], {}, false);
  EXPECT_FALSE(merely_guards[8]);  // 已 of 而已
  // Only limits, but contrasts and or offers another way: 只 and 但 inside a unit stay (CSDS val 151: "申请退款但只
  // 退了[数字]元安装服务费" had become "申请退款退[数字]元安装服务费"), and so does 或是 between two ways (696).
  auto only = make_dialogue({{Speaker::customer, {"申请退款但只退了[数字]元安装服务费"}}});
  const Prepared po = prepare(only, lexicon());
  const std::vector<char> only_guards = meaning_guards(po.unit_tokens[0], {}, false);
  EXPECT_TRUE(only_guards[4] && only_guards[5]);  // 但 and 只
  auto either = make_dialogue({{Speaker::agent, {"可以联系供应商客服或是在商品提问区提问"}}});
  const Prepared pe = prepare(either, lexicon());
  const std::vector<char> either_guards = meaning_guards(pe.unit_tokens[0], {}, false);
  EXPECT_TRUE(either_guards[9]);  // 或
  // Opening the unit, 但 links to a turn before it and may go.
  auto opening = make_dialogue({{Speaker::customer, {"但订单未付款"}}});
  const Prepared pg = prepare(opening, lexicon());
  const std::vector<char> opening_guards = meaning_guards(pg.unit_tokens[0], {}, false);
  EXPECT_FALSE(opening_guards[0]);
  // Will is not is, and not now is not never: 会 before a verb, and 目前 before a no, stay (CSDS val 460, 463).
  auto will = make_dialogue({{Speaker::agent, {"售后是会处理的哦，目前是无法申请的"}}});
  const Prepared pwl = prepare(will, lexicon());
  const std::vector<char> will_guards = meaning_guards(pwl.unit_tokens[0], {}, false);
  EXPECT_TRUE(will_guards[3]);                     // 会
  EXPECT_TRUE(will_guards[9] && will_guards[10]);  // 目前
  auto now = make_dialogue({{Speaker::agent, {"目前价格是最低的"}}});
  const Prepared pnow = prepare(now, lexicon());
  EXPECT_FALSE(meaning_guards(pnow.unit_tokens[0], {}, false)[0]);  // no no after it: 目前 may go
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

TEST(Compress, JiuBeforeAClosingKeyiStays) {
  // te157 761 had become "…直接用刚刚绑定的手机号码登录可以…" and CSDS val "邮件给我就可以了" "邮件给可以".
  auto d = make_dialogue({{Speaker::agent, {"您直接用新号码登录就可以了哦"}}, {Speaker::customer, {"就可以了吗"}}});
  const Prepared p = prepare(d, lexicon());
  const auto units = compress_features(p, 97);
  EXPECT_EQ(compress_unit(p.units[0], units[0], weights_keeping(units[0], {"登", "录", "可", "以"}), 0.5f), "登录就可以");
  // Not in a question, where 就 is no guarantee's.
  std::vector<float> w(98, 0.0f);
  w.back() = -10.0f;
  EXPECT_EQ(compress_unit(p.units[1], units[1], w, 0.5f).find("就"), std::string::npos);
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
