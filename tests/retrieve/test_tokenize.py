from hypothesis import given, settings
from hypothesis import strategies as st

from chronorag.retrieve.tokenize import cjk_ratio, is_mostly_cjk, tokenize, word_ends, words


def test_english_words_numbers_lowercase_no_stopwords_or_punctuation():
    assert tokenize("Who was the Chancellor of Germany on 26 September 2021?") == [
        "chancellor", "germany", "26", "september", "2021"]


def test_nfkc_folds_full_width_letters_and_digits():
    assert tokenize("ＧＭＶ　２０２４") == ["gmv", "2024"]


def test_chinese_is_segmented_into_words():
    tokens = tokenize("退货政策是多少天？")
    assert "退货" in tokens and "政策" in tokens
    assert "是" not in tokens and "？" not in tokens


def test_mixed_chinese_and_english():
    tokens = tokenize("华东GMV趋势")
    assert tokens == ["华东", "gmv", "趋势"]


def test_empty_and_punctuation_only():
    assert tokenize("") == []
    assert tokenize("?!… ，。") == []


def test_cjk_ratio():
    assert cjk_ratio("hello") == 0.0
    assert cjk_ratio("") == 0.0
    assert is_mostly_cjk("上周二我几点吃的午饭？")
    assert not is_mostly_cjk("What is the GMV 趋势?")


def test_scripts_are_counted_in_words():
    # Counted by letters, each of these would be English ("Firefox", "VPN" and an address
    # outweigh the Chinese characters).
    assert is_mostly_cjk("Firefox 有没有可以隐藏 IP 地址的 VPN 功能？")
    assert is_mostly_cjk("Mozilla 让 Twilio 把我通过 Firefox Relay 收发的短信记录保留多久后删除？")
    assert is_mostly_cjk("其他注意事项\n\n法律适用\n\n本合同适用加州法律，但加州冲突法除外。\n\n"
                         "如果本条款的英文版与翻译版之间有任何冲突，以英文版为准。\n\n"
                         "Mozilla 联系方式：\n\nMozilla Corporation Attn: Mozilla – Legal "
                         "Notices 149 New Montgomery Street 4th Floor San Francisco, CA 94105"
                         "\n\nlegal-notices@mozilla.com")
    # English with Chinese names stays English, titles given in both scripts too; digits
    # are words of neither.
    assert not is_mostly_cjk("Li Keqiang (李克强) was premier of China from 2013 to 2023.")
    assert not is_mostly_cjk("1973 Back Alley Princess (馬路小英雄) - 1974 Games Gamblers "
                             "Play (鬼馬雙星) - 1976 The Private Eyes (半斤八兩)")
    assert cjk_ratio("2024年") == 1.0
    assert cjk_ratio("2024") == 0.0
    assert cjk_ratio("服务条款 GitHub Docs") == (4 / 1.8) / (4 / 1.8 + 2)


def test_word_ends_are_where_jieba_ends_a_word():
    assert word_ends("这条路全长35公里。") >= {0, 7, 9, 10}
    assert 8 not in word_ends("这条路全长35公里。")  # inside 公里
    assert word_ends("") == {0}


@given(text=st.text(max_size=200))
def test_word_ends_span_the_text(text: str) -> None:
    ends = word_ends(text)
    assert {0, len(text)} <= ends and all(0 <= e <= len(text) for e in ends)
    assert 0.0 <= cjk_ratio(text) <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_words_cut_any_text_without_losing_a_character(text):
    assert "".join(words(text)) == text
