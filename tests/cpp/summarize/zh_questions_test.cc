// What makes a Chinese clause ask, and how a yes/no question's answer is recognized
// (src/summarize/zh_questions.h).
#include "summarize/zh_questions.h"

#include <gtest/gtest.h>

#include <string>

#include "kessel/text/segment.h"
#include "kessel/text/utf8.h"
#include "summarize/render.h"

namespace kessel::summarize::zh_question {
namespace {

std::vector<char32_t> cps(const std::string& s) { return text::decode_utf8(s).cps; }
bool asks(const std::string& clause) {
  const auto c = cps(clause);
  return clause_asks(c, 0, c.size());
}
std::u32string verb_of(const std::string& question) {
  const auto c = cps(question);
  return polar_verb(std::u32string_view(c.data(), c.size()));
}
int answers(const std::string& answer, const std::string& question) {
  const auto a = cps(answer);
  return answers_polar(std::u32string_view(a.data(), a.size()), verb_of(question));
}

TEST(ZhQuestions, AnANotAFormAsksUnlessTheClauseIsIndefinite) {
  EXPECT_TRUE(asks("会不会影响小哥绩效考核"));
  EXPECT_TRUE(asks("能不能延长付款时间"));
  EXPECT_TRUE(asks("有没有正规发票"));
  EXPECT_TRUE(asks("可不可以货到付款"));
  EXPECT_FALSE(asks("不确定发票有没有寄回"));
  EXPECT_FALSE(asks("不知道能不能退"));
  EXPECT_FALSE(asks("我看看有没有"));
  EXPECT_FALSE(asks("不不不"));  // a repeated negator is no A不A
  EXPECT_TRUE(asks("那京东豆还了没有"));
  EXPECT_TRUE(asks("能查下处理了没"));
  EXPECT_FALSE(asks("都不知道坏了没有"));
}

TEST(ZhQuestions, WhereAfterWhoHowAndAPrepositionAsks) {
  // te157 623 showed 用户:到哪里查询发票。 as a statement.
  EXPECT_TRUE(asks("那我到哪里查询发票"));
  EXPECT_TRUE(asks("在哪里申请"));
  EXPECT_TRUE(asks("我可以在哪里申请"));
  EXPECT_TRUE(asks("去哪儿退"));
  // 在哪, 去哪 and 到哪 end a clause that asks (te157 709 showed 用户:京东PC端在哪。 as a statement).
  EXPECT_TRUE(render::asks_without_mark("你好，京东PC端在哪", false));
  EXPECT_TRUE(render::asks_without_mark("你们能送货到哪", false));
  // Not without the preposition, nor after a verb that knows.
  EXPECT_FALSE(asks("我哪里都去过"));
  EXPECT_FALSE(asks("不知道在哪里申请"));
  EXPECT_FALSE(render::asks_without_mark("找不到在哪", false));
  // A change of state after the question word asks the same (te157 769 showed 用户:请问快递到哪里。).
  EXPECT_TRUE(render::asks_without_mark("请问我的快递到哪里了", false));
  EXPECT_TRUE(render::asks_without_mark("订单到哪了", false));
  // 十几天, 好几天, 这几天 say "a few": no question.
  EXPECT_FALSE(render::asks_without_mark("十几天了", false));
  EXPECT_FALSE(render::asks_without_mark("都好几天", false));
  EXPECT_TRUE(render::asks_without_mark("要等几天", false));
}

TEST(ZhQuestions, WhyOrWhetherInsideAClauseAsksUnlessItIsReported) {
  // te157 627 and 715 showed 用户:我的这个订单物流为什么完全走错了地方。 and 用户:购买分数较多，能否有折扣。 as statements.
  EXPECT_TRUE(asks("我的这个订单物流为什么完全走错了地方"));
  EXPECT_TRUE(asks("电话为啥打不通"));
  EXPECT_TRUE(asks("能否有折扣"));
  EXPECT_TRUE(asks("发票上单位没写，能否重开"));
  // A verb of knowing, seeing or checking before it makes it a report.
  EXPECT_FALSE(asks("不知道为什么坏了"));
  EXPECT_FALSE(asks("这就是为什么要验货"));
  EXPECT_FALSE(asks("联系售后看能否修改为上门取件"));
  EXPECT_FALSE(asks("帮您确认能否退货"));
}

TEST(ZhQuestions, WhenInsideAClauseAsksUnlessItIsReportedOrWhenever) {
  // te157 740 and CSDS val 24, 77, 261 showed 用户:什么时候能回复我。, 用户:什么时候有货。 as statements.
  EXPECT_TRUE(asks("你什么时候能回复我"));
  EXPECT_TRUE(asks("定单什么时候能收到货"));
  EXPECT_TRUE(asks("大概什么时候发货"));
  // Asking the agent to check leads a question in (te157 740 showed 用户:看什么时候会有货。); one's own
  // checking reports it.
  EXPECT_TRUE(asks("帮我看下什么时候会有货"));
  EXPECT_TRUE(asks("你查下多少钱"));
  EXPECT_FALSE(asks("我看看什么时候有空"));
  EXPECT_FALSE(asks("告诉我什么时候在什么地方可以查看到"));
  EXPECT_FALSE(asks("等什么时候有货再说"));
  EXPECT_FALSE(asks("我什么时候都可以"));
}

TEST(ZhQuestions, WhoWhatWhereAndHowMuchInsideAClauseAsk) {
  // CSDS val 20, 34, 48, 485, 659 showed these as statements (用户:邮费谁付。).
  EXPECT_TRUE(asks("快递费谁出"));
  EXPECT_TRUE(asks("企业账户和普通账户什么区别"));
  EXPECT_TRUE(asks("在哪联系厂家"));
  EXPECT_TRUE(asks("是多少金币"));
  EXPECT_TRUE(asks("早上几点有人可以去取"));
  EXPECT_TRUE(asks("还没发货什么时候发"));  // why and when still ask after a negation
  EXPECT_TRUE(asks("有什么不同"));  // 不同 after "what" negates nothing
  // 想知道 leads a question in, and a final 啥时候 asks (CSDS val 155, 699: 用户:想知道这货什么时候送。).
  EXPECT_TRUE(asks("我想知道这货什么时候送"));
  EXPECT_TRUE(render::asks_without_mark("要等到啥时候", false));
  // Indefinite: "and so on", "any" after a condition or negation, "nowhere", a report, a filler, a suggestion in
  // 吧, "a few" and an exclamation.
  EXPECT_FALSE(asks("比如发票什么的"));
  EXPECT_FALSE(asks("万一又有个什么问题很影响生活"));
  EXPECT_FALSE(asks("这个没有什么用"));
  EXPECT_FALSE(asks("因为在订单哪里查不到"));
  EXPECT_FALSE(asks("打电话问送货的物流人员说是他哪里没有"));
  EXPECT_FALSE(asks("我已经买了那个什么无忧退换货"));
  EXPECT_FALSE(asks("到哪了给他退款吧"));
  EXPECT_FALSE(asks("十一点[数字]几天申请了"));
  EXPECT_FALSE(asks("这才几天"));
  EXPECT_FALSE(asks("什么东西都没有"));
}

TEST(ZhQuestions, AQuestionWordPairedWithItselfAsksNothing) {
  // CSDS val 655: 哪天到就哪天到，不要误导 ("whichever day") was reported as a question.
  EXPECT_FALSE(asks("哪天到就哪天到"));
  EXPECT_FALSE(asks("怎么支付的就怎么返回的"));
  EXPECT_TRUE(asks("哪天到"));
  // 可能不能 is "may not be able to", no A不A (CSDS val 247).
  EXPECT_FALSE(asks("但是微信支付可能不能显示卡号"));
  EXPECT_TRUE(asks("能不能显示卡号"));
}

TEST(ZhQuestions, HowManyOfAThingAtTheEndAsks) {
  // CSDS val 754 showed 用户:目前有货的是多少条。 as a statement.
  EXPECT_TRUE(render::asks_without_mark("目前有货的是多少条", false));
  EXPECT_TRUE(render::asks_without_mark("还剩多少个", false));
  EXPECT_FALSE(render::asks_without_mark("不知道有多少条", false));
  EXPECT_FALSE(render::asks_without_mark("没多少个", false));
  // Weights and lengths too (CSDS val 274: 用户:最大能穿多少斤到多少斤。).
  EXPECT_TRUE(render::asks_without_mark("最大能穿多少斤到多少斤", false));
}

TEST(ZhQuestions, MaAsksAsMaDoesWhereTheClauseHasSomethingToAskWith) {
  // te157 734 showed 用户:货到付款可以把钱放到门卫那让快递员自己拿嘛。 as a statement; CSDS val 95, 229, 684.
  EXPECT_TRUE(render::asks_without_mark("货到付款可以把钱放到门卫那让快递员自己拿嘛", false));
  EXPECT_TRUE(render::asks_without_mark("发票开出了嘛", false));
  EXPECT_TRUE(render::asks_without_mark("能帮我联系一下嘛", false));
  EXPECT_TRUE(render::asks_without_mark("一般都是用来泡水喝嘛", false));
  // A request, an insisting adverb, a short reply, 干嘛.
  EXPECT_FALSE(render::asks_without_mark("有货的先发给我看嘛", false));
  EXPECT_FALSE(render::asks_without_mark("所以你一直提醒的无法保价根本不是个问题嘛", false));
  EXPECT_FALSE(render::asks_without_mark("好的嘛", false));
  EXPECT_FALSE(render::asks_without_mark("你转嘛", false));
}

TEST(ZhQuestions, ZaIsHowAsSpoken) {
  // CSDS val 558 showed 用户:账户余额提现咋提。 as a statement.
  EXPECT_TRUE(render::asks_without_mark("账户余额提现咋提", false));
  EXPECT_TRUE(render::asks_without_mark("这个咋用", false));
  EXPECT_FALSE(render::asks_without_mark("这个不咋好用", false));
}

TEST(ZhQuestions, AVerbThenBuAsksUnlessTheDataCutTheClause) {
  EXPECT_TRUE(asks("可以不"));
  EXPECT_TRUE(asks("能改不"));
  EXPECT_TRUE(asks("自营的马桶，包安装不"));
  EXPECT_TRUE(asks("要等到[数字]天可以拿到退款不"));
  EXPECT_TRUE(asks("你们的快递能进村不啊"));
  EXPECT_FALSE(asks("不不不"));
  EXPECT_FALSE(asks("要不"));  // "otherwise"
  EXPECT_FALSE(asks("不"));
  // A turn cut at 30 characters may stop inside 不V: 安装师傅给我打电话说不[送].
  const auto cut = cps("安装师傅给我打电话说不");
  EXPECT_FALSE(clause_asks(cut, 0, cut.size(), /*cut_off=*/true));
  EXPECT_TRUE(clause_asks(cut, 0, cut.size()));
}

TEST(ZhQuestions, AYesNoQuestionTurnsOnTheVerbItsAnswerRepeats) {
  EXPECT_EQ(verb_of("会不会影响小哥绩效考核"), U"会");
  EXPECT_EQ(verb_of("可不可以货到付款"), U"可以");
  EXPECT_EQ(verb_of("是傍[姓名]配送站吗"), U"是");
  // 是不是 before a modal turns on the modal; a plain yes still answers it.
  EXPECT_EQ(verb_of("我是想问今天买是不是今天就能用?"), U"能");
  EXPECT_EQ(answers("可以的哦", "我是想问今天买是不是今天就能用?"), 2);
  EXPECT_EQ(answers("是的", "是不是今天就能用"), 1);
  EXPECT_EQ(verb_of("是不是京东快递，能到吗"), U"是");  // the modal is in another clause
  EXPECT_EQ(verb_of("保修换新这个服务有吗"), U"有");
  EXPECT_EQ(verb_of("什么时候能到"), U"");  // a question word: not a yes/no question
  EXPECT_EQ(verb_of("[订单编号]"), U"");    // no question
}

bool tagged_dictionary() { return text::Segmenter::default_segmenter().word_class(U"订单") == text::WordClass::noun; }

TEST(ZhQuestions, WithoutAModalTheQuestionsFirstVerbOrAnyYesOrNo) {
  if (tagged_dictionary()) {
    EXPECT_EQ(verb_of("这款电脑带光驱吗"), U"带");
    EXPECT_EQ(answers("不带光驱的呢", "这款电脑带光驱吗"), 2);
  } else {  // the built-in table tags no word: any yes or no answers
    EXPECT_EQ(verb_of("这款电脑带光驱吗"), kAnyVerb);
  }
  EXPECT_EQ(verb_of("[订单编号]吗"), kAnyVerb);
  EXPECT_EQ(answers("这个是没有的", "带耳机和手机壳吗"), 1);
  EXPECT_EQ(answers("没有哦", "带耳机和手机壳吗"), 1);
  // An adverb of time before the verb: 已经申请 repeats 申请.
  if (tagged_dictionary()) {
    EXPECT_EQ(answers("已经申请等待审核中", "申请了吗"), 2);
  }
  EXPECT_EQ(answers("还没有可以的", "可以吗"), 0);  // 还 then 没有: not the verb, not 没有 alone
  // 没有 opening a sentence of its own answers nothing.
  EXPECT_EQ(answers("没有问题的话就再见了", "其他的子订单也会自动取消吗"), 0);
}

TEST(ZhQuestions, AnAnswerOpensWithTheVerbItsNegationOrAYesOrNo) {
  // The question's own verb, its negation, or its own yes or no: the best answer.
  EXPECT_EQ(answers("不是的呢", "意思就是我以后不能买了呗"), 2);
  EXPECT_EQ(answers("没有单独售卖的支架", "你们店里有配支架吗"), 2);
  EXPECT_EQ(answers("这个是不会的哈", "会不会影响小哥绩效考核"), 2);
  EXPECT_EQ(answers("亲，可以的", "能不能延长付款时间"), 2);
  EXPECT_EQ(answers("不用重新下", "要不要退了重新下单"), 2);
  EXPECT_EQ(answers("是的", "是傍[姓名]配送站吗"), 2);
  // A yes or no that fits any question.
  EXPECT_EQ(answers("是的", "一般都可以换成普通发票的吧"), 1);
  EXPECT_EQ(answers("是的呢直接拒收就好哦", "会不会影响小哥绩效考核"), 1);
  // Another sentence after the question is no answer to it.
  EXPECT_EQ(answers("不会的已经告知站点了", "是傍[姓名]配送站吗"), 0);
  EXPECT_EQ(answers("电子发票是订单完成后开具", "保修换新这个服务有吗"), 0);
}

TEST(ZhQuestions, AQuestionWithoutAMarkMayEndInACommaOfEitherKind) {
  EXPECT_TRUE(render::asks_without_mark("您自己已经申请了么", false));
  EXPECT_TRUE(render::asks_without_mark("您自己已经申请了么，", false));
  EXPECT_TRUE(render::asks_without_mark("您自己已经申请了么、", false));
  // A full stop says it is a statement.
  EXPECT_FALSE(render::asks_without_mark("您自己已经申请了么。", false));
}

TEST(ZhQuestions, HowFarAndHowBigAsk) {
  // te157 695 showed 客服:新地址距离收货地址有多远。 once deletion took its 呢.
  EXPECT_TRUE(render::asks_without_mark("新地址距离收货地址有多远", false));
  EXPECT_TRUE(render::asks_without_mark("这个尺寸多大", false));
  EXPECT_FALSE(render::asks_without_mark("差价没多大", false));
  // How long asks anywhere in its clause (te157 742 showed 用户:大概多久可以拿。 as a statement), but not
  // "not long" (没用多久的).
  EXPECT_TRUE(render::asks_without_mark("大概多久可以拿", false));
  EXPECT_TRUE(render::asks_without_mark("退货申请多长时间可以通过", false));
  EXPECT_FALSE(render::asks_without_mark("没用多久的", false));
  EXPECT_FALSE(render::asks_without_mark("才多久就坏了", false));
}

TEST(ZhQuestions, CheckingWhatIsMeantAsks) {
  // 亲您是要退货 (te157 693 showed 客服:是要退货。) checks what the customer means, however it ends.
  EXPECT_TRUE(render::asks_without_mark("亲您是要退货", false));
  EXPECT_TRUE(render::asks_without_mark("您是说下单的时候使用白条", false));
  EXPECT_FALSE(render::asks_without_mark("您是京东的会员", false));
  EXPECT_FALSE(render::asks_without_mark("这个您是可以申请的", false));
}

TEST(ZhQuestions, AChoiceWithHaishiAsks) {
  // 是A还是B, in one clause or across two.
  EXPECT_TRUE(render::asks_without_mark("售后是京东负责还是专卖店负责", false));
  EXPECT_TRUE(render::asks_without_mark("你们是发顺丰还是发韵达", false));
  EXPECT_TRUE(render::asks_without_mark("我想问是重新发了一个，还是怎么回事", false));
  // 还是 opening the last clause after a clause that asks.
  EXPECT_TRUE(render::asks_without_mark("现在钱包余额充值了，需要不需要再做什么，还是到时自动启动", false));
  EXPECT_TRUE(render::asks_without_mark("是下单的手机号吗，还是接收人的", false));
  // 还是 as "still", a preference in 吧, and 是 that leads no choice ask nothing.
  EXPECT_FALSE(render::asks_without_mark("是因为充了一个晚上还是没反应才打算还的", false));
  EXPECT_FALSE(render::asks_without_mark("退了再发回来还是一样啊", false));
  EXPECT_FALSE(render::asks_without_mark("我觉得是质量问题，还是换货吧", false));
  EXPECT_FALSE(render::asks_without_mark("是这样的，我还是要退货", false));
  EXPECT_FALSE(render::asks_without_mark("就是说还是要等", false));
  EXPECT_FALSE(render::asks_without_mark("我早晨看的还是派送", false));
  // Two short sides without 是 (CSDS val 759, 365, 176: shown as statements before).
  EXPECT_TRUE(render::asks_without_mark("直接退款还是建赔付单", false));
  EXPECT_TRUE(render::asks_without_mark("银行卡还是jd账户", false));
  EXPECT_TRUE(render::asks_without_mark("下单还是货到发", false));
  // "Still": a subject, an adverb or an aspect before it, a predicate after it, a statement's end, a side
  // of one letter.
  EXPECT_FALSE(render::asks_without_mark("订单现在还是收货", false));
  EXPECT_FALSE(render::asks_without_mark("聊了半天还是机器", false));
  EXPECT_FALSE(render::asks_without_mark("订单还是在出库状态", false));
  EXPECT_FALSE(render::asks_without_mark("你们还是发了", false));
  EXPECT_FALSE(render::asks_without_mark("弄来弄去还是坑", false));
  EXPECT_FALSE(render::asks_without_mark("对方说已经付款然后我这边显示还是代付款状况", false));
}

TEST(ZhQuestions, QuestionMarksAfterARequestUrge) {
  const auto urges = [](const std::string& text, const std::string& tail) {
    return render::urges_with_marks(cps(text), cps(tail));
  };
  EXPECT_TRUE(urges("我需要注销账号", "??"));
  EXPECT_TRUE(urges("地址错误，我要退货，", "？"));
  EXPECT_TRUE(urges("退款给我", "??"));
  EXPECT_TRUE(urges("请帮我备注加急", "?"));
  // A statement the customer wants confirmed, or 请问, asks.
  EXPECT_FALSE(urges("是原装的", "??"));
  EXPECT_FALSE(urges("我可以自己去拿", "??"));
  EXPECT_FALSE(urges("请问我为什么打不了白条", "??"));
  // A permission tail asks whatever comes before it.
  EXPECT_FALSE(urges("我想取消订单", "可以吗"));
}

TEST(ZhQuestions, ATagInBaPresumesAndAsks) {
  const auto tagged = cps("一般都可以换成普通发票的吧。");
  EXPECT_TRUE(ends_in_tag(std::u32string_view(tagged.data(), tagged.size())));
  const auto plain = cps("您先试试");
  EXPECT_FALSE(ends_in_tag(std::u32string_view(plain.data(), plain.size())));
}

TEST(ZhQuestions, QuestionWordsOverCodePointsMatchTheByteSearch) {
  // The one-pass version decoding uses against the plain search of each word in the text.
  const std::string texts[] = {"", "多", "多少钱", "请问多久能到", "什么时候", "什", "怎么办", "怎样", "哪里", "谁",
                               "咋回事", "啥", "几号到", "几个", "几天", "几点", "如何处理", "无论如何都要", "不管如何",
                               "无论如何，如何退款", "如", "何", "少多", "好的谢谢", "\xe5\xa4\x9a\xe5\xb0\x91",
                               "abc?", "\xff多少", "\xe5\xa4多少", "多\xe5少", "很多少年"};
  for (const std::string& t : texts) {
    const auto cps = text::decode_utf8(t, text::Utf8Mode::lossy).cps;
    EXPECT_EQ(holds_question_word(std::u32string_view(cps.data(), cps.size())), holds_question_word(std::string_view(t)))
        << t;
  }
}

}  // namespace
}  // namespace kessel::summarize::zh_question
