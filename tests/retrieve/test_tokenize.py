from chronorag.retrieve.tokenize import cjk_ratio, is_mostly_cjk, tokenize


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
