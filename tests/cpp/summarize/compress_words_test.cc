// Whole-word token deletion of a Chinese unit (compress_words.cc): which words stay or go together, the
// meaning guards seen through them (compress_guards.cc), and the passes that mend what deletion leaves.
// Each case sets the word numbers and which tokens score low, so the rule, not the model, decides.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "summarize/compress.h"
#include "test_dialogues.h"

namespace kessel::summarize {
namespace {

using text::Speaker;

using testing::make_dialogue;
const text::Lexicon& lexicon() { return testing::default_lexicon(); }

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

TEST(WholeWordDeletion, AClauseFinalLeStaysOrGoesWithTheOneLetterWordItCompletes) {
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

TEST(WholeWordDeletion, AModalFurtherBackInAYesNoQuestionStays) {
  // 我|能|单独|取消|其中|一|单|吗 (te157 737 read 用户:询问单独取消其中一单吗。): 能 low, and guarded.
  EXPECT_EQ(compress_with_low("我能单独取消其中一单吗", {0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7}, {0, 1}), "能单独取消其中一单吗");
  // In another clause it is the model's: 我能去，在家吗 asks only whether someone is at home (the clause
  // cut to 去 then goes whole, drop_lone_letters).
  EXPECT_EQ(compress_with_low("我能去，在家吗", {0, 1, 2, 3, 4, 5, 6}, {0, 1}), "在家吗");
}

TEST(WholeWordDeletion, AParticleBetweenTwoRunOnClausesStays) {
  // 没有|的|哦|预计|明天|有货 (CSDS val 413 read 没有的预计…): 哦 low, words kept on both sides; rendering puts
  // the comma after it.
  EXPECT_EQ(compress_with_low("没有的哦预计明天有货", {0, 0, 1, 2, 3, 3, 4, 4, 5, 5}, {3}), "没有的哦预计明天有货");
  // At the end, or with its clause gone, it is the model's to drop.
  EXPECT_EQ(compress_with_low("预计明天有货哦", {0, 0, 1, 1, 2, 2, 3}, {6}), "预计明天有货");
  EXPECT_EQ(compress_with_low("好的哦预计明天有货", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {0, 1, 2}), "预计明天有货");
  // 吧 closes its clause when a pronoun opens the next (te157 711: 那就取消吧我看说今天到… had become 取消看说今天
  // 到…): it stays, with the pronoun. Elsewhere it also stands inside a clause (联系客户吧行么): the model's.
  EXPECT_EQ(compress_with_low("取消吧我看一下", {0, 0, 1, 2, 3, 3, 4}, {2, 3}), "取消吧我看一下");
  EXPECT_EQ(compress_with_low("联系客户吧行么", {0, 0, 1, 1, 2, 3, 4}, {4}), "联系客户行么");
}

TEST(WholeWordDeletion, AnAddressCutToItsNounGoesWhole) {
  // 收到|了|呢|亲爱|的|客户 (CSDS val 367 read 客服:收到呢，客户。): 亲爱的 low; 客户 goes with it.
  EXPECT_EQ(compress_with_low("收到了呢亲爱的客户", {0, 0, 1, 2, 3, 3, 4, 5, 5}, {1, 2, 3, 4, 5, 6}), "收到");
  // A customer that is what the sentence is about stays (the address kept, or none).
  EXPECT_EQ(compress_with_low("请联系客户", {0, 1, 1, 2, 2}, {0}), "联系客户");
}

TEST(WholeWordDeletion, ADemonstrativeThatIdentifiesStays) {
  // 请问|是|这个|订单|吗 (te157 702 read 客服:请问是订单？, whether it is an order at all): 这个 low, guarded.
  EXPECT_EQ(compress_with_low("请问是这个订单吗", {0, 0, 1, 2, 2, 3, 3, 4}, {3, 4}), "请问是这个订单吗");
  // 之前|没有|出现|这种|情况 (te157 678 read 之前没有出现情况, nothing ever happened).
  EXPECT_EQ(compress_with_low("之前没有出现这种情况", {0, 0, 1, 1, 2, 2, 3, 3, 4, 4}, {6, 7}), "之前没有出现这种情况");
  // 是这样的 points at no thing: the model's to drop.
  EXPECT_EQ(compress_with_low("是这样的，订单生成后", {0, 1, 1, 2, 3, 4, 4, 5, 5, 6}, {0, 1, 2, 3, 4}), "订单生成后");
}

TEST(WholeWordDeletion, AColonBetweenAKeptLabelAndItsValueStays) {
  // 原因|:|客户|原因|退货 (CSDS val 120 read 原因客户原因退货): the colon low, both sides kept.
  EXPECT_EQ(compress_with_low("原因:客户原因退货", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {2}), "原因:客户原因退货");
  // With its label gone it goes too, and after 为 the copula joins them (CSDS val 389: 质保期为一年).
  EXPECT_EQ(compress_with_low("原因:客户原因退货", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {0, 1, 2}), "客户原因退货");
  EXPECT_EQ(compress_with_low("质保期为:一年", {0, 0, 0, 1, 2, 3, 4}, {4}), "质保期为一年");
}

TEST(WholeWordDeletion, WantingBeforeAVerbStaysUnlessTheUnitAsks) {
  // 我要|开|专用发票|的 (te157 742 read 用户:开专用发票的。): 我要 is one word to jieba, and guarded.
  EXPECT_EQ(compress_with_low("我要开专用发票的", {0, 0, 1, 2, 2, 2, 2, 3}, {0, 1}), "我要开专用发票的");
  // In a question, reported as 询问…, it is the model's: 询问退货怎么处理, not 询问我要退货怎么处理.
  EXPECT_EQ(compress_with_low("我要退货怎么处理", {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1}), "退货怎么处理");
}

TEST(WholeWordDeletion, AClauseFinalLeAfterAnActionVerbStaysWhereNothingElseSaysItIsDone) {
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

TEST(WholeWordDeletion, AOneLetterVerbAndItsDirectionComplementStayOrGoTogether) {
  // 打|过去|的|一般|是|座机: 过去 scores low and 打 high. Alone, 打 would stay as "call", not "the calls
  // made (to you)": 打一般是座机. Bound, the pair's mean decides for both, and 的 goes with them.
  EXPECT_EQ(compress_with_low("打过去的一般是座机", {0, 1, 1, 2, 3, 3, 4, 5, 5}, {1, 2}), "一般是座机");
  // Only 去 low: the pair stays whole.
  EXPECT_EQ(compress_with_low("打过去的一般是座机", {0, 1, 1, 2, 3, 3, 4, 5, 5}, {2}), "打过去的一般是座机");
}

TEST(WholeWordDeletion, APrepositionAndThePersonAfterItStayOrGoTogether) {
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

TEST(WholeWordDeletion, GuardsKeepWhoItIsForHowAndAQuestionBeforeTheAddress) {
  // 本来|就是|给|朋友|买|的: without 给 the friend is the buyer.
  EXPECT_EQ(compress_with_low("本来就是给朋友买的", {0, 0, 1, 1, 2, 3, 3, 4, 5}, {0, 1, 4}), "就是给朋友买的");
  // 买|家电|怎样|分期付款: 怎样 asks how.
  EXPECT_EQ(compress_with_low("买家电怎样分期付款", {0, 1, 1, 2, 2, 3, 3, 3, 3}, {3, 4}), "买家电怎样分期付款");
  // 您|有|开通|白条|吗|亲: the 吗 before the address 亲 still closes the question.
  EXPECT_EQ(compress_with_low("您有开通白条吗亲", {0, 1, 2, 2, 3, 3, 4, 5}, {0, 6, 7}), "有开通白条吗");
}

TEST(WholeWordDeletion, AQuestionWordKeepsWhatItAsksAbout) {
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

TEST(WholeWordDeletion, TheRecipientAfterAVerbAndWhoWillDoItStay) {
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

TEST(WholeWordDeletion, WhoSaidItStaysWithSaid) {
  // 他|说|会|返回: without 他 the customer says it.
  EXPECT_EQ(compress_with_low("他说会返回", {0, 1, 2, 3, 3}, {0, 1}), "他说会返回");
  // 快递|说|周二|送货
  EXPECT_EQ(compress_with_low("快递说周二送货", {0, 0, 1, 2, 2, 3, 3}, {0, 1, 2}), "快递说周二送货");
  // The customer's own 我说 is the model's to shorten.
  EXPECT_EQ(compress_with_low("我说周二送货", {0, 1, 2, 2, 3, 3}, {0, 1}), "周二送货");
}

TEST(WholeWordDeletion, ACountInWordsIsANumber) {
  // 每次|只能|申请|一|件|商品: the count goes with its measure word, and neither may go.
  EXPECT_EQ(compress_with_low("每次只能申请一件商品", {0, 0, 1, 1, 2, 2, 3, 4, 5, 5}, {6, 7}), "每次只能申请一件商品");
  // "Only" before a count stays with it: 就|一|个|手机|给|我|了 (CSDS val 391 showed 用户:一个手机给我了。).
  EXPECT_EQ(compress_with_low("就一个手机给我了", {0, 1, 2, 3, 3, 4, 5, 6}, {0}), "就一个手机给我了");
  // A demonstrative is no count: 这|件 may go (with the word after it, as above).
  EXPECT_EQ(compress_with_low("这件商品不错", {0, 1, 2, 2, 3, 3}, {0, 1}), "商品不错");
}

TEST(WholeWordDeletion, OnlyThenAndWhichOneStay) {
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

TEST(WholeWordDeletion, WhichOneAVerbIsAboutStays) {
  // 不|知道|选|那个|了 (CSDS val 724 showed 不知道选): the object that ends the clause stays with its verb.
  // The third argument lists the low tokens: here 选, 那, 个 and 了.
  EXPECT_EQ(compress_with_low("不知道选那个了", {0, 1, 1, 2, 3, 3, 4}, {3, 4, 5, 6}), "不知道选那个");
  EXPECT_EQ(compress_with_low("好的我要这个", {0, 0, 1, 2, 3, 3}, {0, 1, 4, 5}), "我要这个");
  // After 的 it is no verb's object: the model may drop it.
  EXPECT_EQ(compress_with_low("换货的那个", {0, 0, 1, 2, 2}, {3, 4}), "换货的");
}

TEST(WholeWordDeletion, GeiOrWeiForAPronounBeforeAVerbStaysOrGoesWithIt) {
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

TEST(WholeWordDeletion, AKeptBangKeepsThePersonItHelps) {
  // 已经|帮|您|改好|了 (te157 727 showed 客服:已经帮改好了。, a cut): 您 low, 帮 kept.
  EXPECT_EQ(compress_with_low("已经帮您改好了", {0, 0, 1, 2, 3, 3, 4}, {3}), "已经帮您改好了");
  // 帮 low goes alone: who acts is the model's (readers preferred 帮催促配送 to 催促配送).
  EXPECT_EQ(compress_with_low("已经帮您改好了", {0, 0, 1, 2, 3, 3, 4}, {2, 3}), "已经改好了");
  // 帮忙 is a word of its own, and a pronoun with no verb kept after it stays the model's.
  EXPECT_EQ(compress_with_low("帮您，谢谢", {0, 1, 2, 3, 3}, {1}), "帮，谢谢");
}

TEST(WholeWordDeletion, ALetterAndForInOneWordKeepThePersonToo) {
  // jieba's 已|为 is one word: 已为|您|申请|换开|增票 (CSDS val 14 showed 客服:已为申请换开增票。).
  EXPECT_EQ(compress_with_low("已为您申请换开增票", {0, 0, 1, 2, 2, 3, 3, 4, 4}, {2}), "已为您申请换开增票");
  // Not 因为, which is no preposition: 因为|您|没|在家.
  EXPECT_EQ(compress_with_low("因为您没在家", {0, 0, 1, 2, 3, 3}, {2}), "因为没在家");
  // A noun's last letter jieba glued to 为: 在|服务|单为|您|留言 (CSDS val 131 showed 客服:在服务单为留言。).
  EXPECT_EQ(compress_with_low("在服务单为您留言", {0, 1, 1, 2, 2, 3, 4, 4}, {5}), "在服务单为您留言");
}

TEST(WholeWordDeletion, AnOpeningCourtesyRunOnGoesWhole) {
  // 您|客气|了|换开|之后|短信|告知|您 (CSDS val 14 showed 客服:客气换开之后短信告知。).
  const std::vector<int> words{0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7};
  EXPECT_EQ(compress_with_low("您客气了换开之后短信告知您", words, {0, 3, 12}), "换开之后短信告知");
  // Alone it is the whole unit, and stays the model's.
  EXPECT_EQ(compress_with_low("不客气", {0, 1, 1}, {}), "不客气");
}

TEST(WholeWordDeletion, WhoDoesItWithWhomAndACheckAskedForStay) {
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

TEST(WholeWordDeletion, CheckingWhatIsMeantKeepsItsYou) {
  // 亲|您|是|要|退货 (te157 693 showed 客服:是要退货。, a statement).
  EXPECT_EQ(compress_with_low("亲您是要退货", {0, 1, 2, 3, 4, 4}, {0, 1, 2}), "您是要退货");
}

TEST(WholeWordDeletion, NoClauseOpensWithMe) {
  // 我|么|收到 (the typo for 我没收到; te157 633 showed 么收到): the word before a clause-opening 么 comes back.
  EXPECT_EQ(compress_with_low("我么收到", {0, 1, 2, 2}, {0}), "我么收到");
  EXPECT_EQ(compress_with_low("好的，怎么办", {0, 0, 1, 2, 2, 3}, {0, 1, 2}), "怎么办");
}

TEST(WholeWordDeletion, AndBetweenTwoThingsStaysOrGoesWithTheSecond) {
  // 只有|手机|跟|包装 (te157 750 showed 只有手机包装, the phone's box): 跟 and 包装 stay or go together.
  EXPECT_EQ(compress_with_low("只有手机跟包装", {0, 0, 1, 1, 2, 3, 3}, {4}), "只有手机跟包装");
  EXPECT_EQ(compress_with_low("只有手机跟包装", {0, 0, 1, 1, 2, 3, 3}, {4, 5, 6}), "只有手机");
}

TEST(WholeWordDeletion, NoDoublingTheSpeakerNeverWrote) {
  // 改|一下|改成|不|退|啦 (te157 624 showed 可不可以改改成不退啦): the deletion would join 改 to 改成.
  EXPECT_EQ(compress_with_low("改一下改成不退啦", {0, 1, 1, 2, 2, 3, 4, 5}, {1, 2}), "改一下改成不退啦");
  // 找|也|找不到 (CSDS val 543 showed 找找不到).
  EXPECT_EQ(compress_with_low("找也找不到", {0, 1, 2, 2, 2}, {1}), "找也找不到");
  // Without a doubling the deletion stands: 改|一下|地址.
  EXPECT_EQ(compress_with_low("改一下地址", {0, 1, 1, 2, 2}, {1, 2}), "改地址");
}

TEST(WholeWordDeletion, AnAndThenNeStaysAsTheQuestion) {
  // 打开|之后|呢: without 呢 the customer's "and after opening it?" reads as a statement.
  EXPECT_EQ(compress_with_low("打开之后呢", {0, 0, 1, 1, 2}, {4}), "打开之后呢");
  // A 呢 that softens a statement is the model's to drop.
  EXPECT_EQ(compress_with_low("已经发货了呢", {0, 0, 1, 1, 2, 3}, {5}), "已经发货了");
}

TEST(WholeWordDeletion, ABaConstructionKeepsItsVerb) {
  // 那|你|先|把|订单号|发给|我: the object of 把 comes before its verb; 把订单号 alone says nothing.
  EXPECT_EQ(compress_with_low("那你先把订单号发给我", {0, 1, 2, 3, 4, 4, 4, 5, 5, 6}, {0, 1, 2, 7, 8, 9}), "把订单号发给我");
  // A clause-final 把 is the typo for 吧 (is_tag_particle): no construction follows, and the rest may go.
  EXPECT_EQ(compress_with_low("数据线里面有把，谢谢", {0, 0, 0, 1, 1, 2, 3, 4, 5, 5}, {8, 9}), "数据线里面有把，");
}

TEST(WholeWordDeletion, HelpingKeepsWhatIsDone) {
  // 帮|我|看下|这个|订单: 帮订单 says nothing of what the customer asked for; the verb after the pronoun stays,
  // and 我 with 帮 (AKeptBangKeepsThePersonItHelps: 帮看下订单 reads as a cut).
  EXPECT_EQ(compress_with_low("帮我看下这个订单", {0, 1, 2, 2, 3, 3, 4, 4}, {1, 2, 3, 4, 5}), "帮我看下订单");
}

TEST(WholeWordDeletion, ANumberInDigitsKeepsItsUnit) {
  // 签收|起|[数字]|天内|哈: the placeholder stays, and so does its unit (how many days).
  EXPECT_EQ(compress_with_low("签收起[数字]天内哈", {0, 0, 1, 2, 3, 3, 4}, {4, 5, 6}), "签收起[数字]天内");
  // 退|30|元: digits too.
  EXPECT_EQ(compress_with_low("退30元给您", {0, 1, 2, 3, 4}, {2, 3, 4}), "退30元");
}

TEST(WholeWordDeletion, AClauseCutToOneLetterGoesWhole) {
  // 如果|您|购买|的，到|您|那面，配送|师傅|会|打电话: the middle clause keeps only 到, which says nothing.
  EXPECT_EQ(compress_with_low("如果您购买的，到您那面，配送师傅会打电话", {0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 12},
                              {2, 5, 8, 9, 10}),
            "如果购买，配送师傅会打电话");
  // A one-letter clause as written stays ("是的，有，屏幕碎了" keeps its 有).
  EXPECT_EQ(compress_with_low("有，屏幕碎了", {0, 1, 2, 2, 3, 4}, {}), "有，屏幕碎了");
}

TEST(WholeWordDeletion, AClauseCutToOneNounGoesWhole) {
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

TEST(WholeWordDeletion, TheAgentsSideStaysTheAgents) {
  // The customer's 你|这边|联系|下|客户|吧: without 你, 这边 is the customer's own side (CSDS val 720).
  EXPECT_EQ(compress_with_low("你这边联系下客户吧", {0, 1, 1, 2, 2, 3, 4, 4, 5}, {0, 1, 2, 5}), "你联系客户吧");
  // 这|面 is this side as 这边 is: it is not cut to 面 (CSDS val 746 had "客服:面查看已经在配送了").
  EXPECT_EQ(compress_with_low("这面查看已经在配送了", {0, 1, 2, 2, 3, 3, 4, 5, 5, 6}, {0}), "这面查看已经在配送了");
}

}  // namespace
}  // namespace kessel::summarize
