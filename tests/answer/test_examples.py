"""The things a sentence lists after "such as" / "including", for questions asking which
(``answer.examples``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chronorag.answer.examples import asked_noun, listed_items, series_after
from chronorag.answer.shape import short_answer

BUTTONS = ("Buttons, Tools, and Content from Other Companies: Our Services may contain links "
           "or buttons that lead to third-party services like Twitter or LinkedIn.")
SYNC = ("(e) Firefox sync lets you access information stored in Firefox across devices, "
        "including your tabs, awesome bar, passwords, bookmarks, and browser preferences. You "
        "can enable and disable Firefox sync through the Settings section of Firefox.")
APPS = ("You can also add applications from GitHub, such as our Desktop app, our Atom "
        "application, or other application and account features, to your Account.")
WEBSITES = ("These Terms also govern GitHub’s conference websites, such as githubuniverse.com, "
            "and product websites, such as atom.io.")
FEATURES = ("Some Firefox features, like automated translation for web pages and “alt-text” "
            "suggestions when you upload images in your PDFs, are powered by artificial "
            "intelligence (AI) based on small language models downloaded to your device.")


@pytest.mark.parametrize(("question", "noun"), [
    ("Which services does it name?", "services"),
    ("What kinds of Firefox information does Firefox sync let me access?",
     "Firefox information"),
    ("Which of GitHub's own applications could I add?", "GitHub's own applications"),
    ("What information does Mozilla collect about it, and who collects it?", None),
    ("Why does GitHub collect it?", None),
])
def test_the_noun_a_question_asks_for(question: str, noun: str | None) -> None:
    assert asked_noun(question) == noun


@pytest.mark.parametrize(("question", "sentence", "items"), [
    ("The privacy statement warns that some buttons lead to other companies' services. "
     "Which services does it name?", BUTTONS, "Twitter or LinkedIn"),
    ("What kinds of Firefox information does Firefox sync let me access across devices?",
     SYNC, "your tabs, awesome bar, passwords, bookmarks, and browser preferences"),
    # The closing catch-all is no example.
    ("Which of GitHub's own applications did it give as examples?", APPS,
     "our Desktop app, our Atom application"),
    ("Which AI features does the notice give as examples?",
     "Your data may be processed by AI to facilitate certain experiences, including AI "
     "features such as chatbot features, summarization features, and the like.",
     "chatbot features, summarization features"),
    ("Which browsers does it name?", "It works with browsers like Firefox, Chrome and so on.",
     "Firefox, Chrome"),
    # The list ends where the sentence goes on (", are powered").
    ("Which Firefox features run on small AI models on my device?", FEATURES,
     "automated translation for web pages and “alt-text” suggestions when you upload images "
     "in your PDFs"),
    ("What sensitive or demographic information may it collect?",
     "Sensitive or demographic information, such as your gender, veteran status, or your "
     "racial or ethnic origin.", "your gender, veteran status, or your racial or ethnic origin"),
    # The asked things named by what they belong to ("details of my transactions").
    ("According to GitHub's privacy statement, which details of my transactions did GitHub "
     "collect automatically?",
     "If you have a paid Account with us, we automatically collect certain information about "
     "your transactions on the Service, such as the date, time, and amount charged.",
     "the date, time, and amount charged"),
    # A count stands for the noun said before it; a dot inside a name ends no list.
    ("The Terms say the \"Website\" also covers some GitHub-owned subdomains of github.com. "
     "Which two did they give as examples?",
     "It also refers to GitHub-owned subdomains of github.com, such as education.github.com "
     "and pages.github.com.", "education.github.com and pages.github.com"),
    # Two lists: each ends where the next one's kind begins, and the kind the question
    # names chooses between them.
    ("Which GitHub conference website do the Terms of Service say they also govern?",
     WEBSITES, "githubuniverse.com"),
    ("Which GitHub product website did the Terms give as an example of a site they cover?",
     WEBSITES, "atom.io"),
])
def test_the_listed_items_answer(question: str, sentence: str, items: str) -> None:
    assert listed_items(question, sentence) == items
    assert short_answer(question, sentence) == items


@pytest.mark.parametrize(("question", "sentence"), [
    # The words before the list name something else than what is asked.
    ("If my account is terminated, which sections still apply afterwards?",
     "In all such cases, these Terms shall terminate, including, without limitation, your "
     "license to use the Services, except that the following sections shall continue to "
     "apply: Indemnification, Miscellaneous."),
    # A clause, not a list.
    ("For what reasons may Mozilla suspend my access?",
     "We may suspend or terminate your access at any time for any reason, including, but not "
     "limited to, if we reasonably believe: (i) you have violated these Terms."),
    # "like" as a verb.
    ("Which support page should I use?",
     "If you would like to make a request, you can reach out through the support page."),
    # Two questions in one: the sentence answers both.
    ("What information does Mozilla collect about a crash, and who collects it?",
     "We use a third-party service to collect technical data such as error messages."),
])
def test_no_list_answers(question: str, sentence: str) -> None:
    assert listed_items(question, sentence) is None


@pytest.mark.parametrize("reader", [listed_items, series_after])
@given(question=st.text(max_size=200), sentence=st.text(max_size=300))
def test_any_text(reader, question: str, sentence: str) -> None:
    found = reader(question, sentence)
    assert found is None or (found and found in sentence)


@given(st.text(max_size=80), st.sampled_from(["such as ", "including ", "like ", "e.g. "]),
       st.text(max_size=80))
def test_steered_text(before: str, introducer: str, after: str) -> None:
    sentence = before + introducer + after
    found = listed_items("Which things does it name?", sentence)
    assert found is None or found in sentence


DISCLAIMS = ("Mozilla specifically disclaims the following: indirect, special, incidental, "
             "consequential, or exemplary damages, direct or indirect damages for loss of "
             "goodwill, work stoppage, lost profits, loss of data, or computer malfunction.")


def test_the_series_after_the_questions_own_words_answers() -> None:
    question = ("Under the MDN Plus terms, Mozilla disclaimed direct or indirect damages for "
                "which kinds of losses?")
    items = ("loss of goodwill, work stoppage, lost profits, loss of data, or computer "
             "malfunction")
    assert series_after(question, DISCLAIMS) == items
    assert short_answer(question, DISCLAIMS) == items


@pytest.mark.parametrize(("question", "sentence"), [
    # The sentence does not say the question's words.
    ("Mozilla is liable for damages of which kinds?", DISCLAIMS),
    # No series after them: one thing, or items too long to be items.
    ("Damages for which losses are excluded?", "We exclude damages for lost profits."),
    ("Damages for which losses are excluded?",
     "We exclude damages for losses that arise from the use of the service by anyone, "
     "losses that arise from outages of networks we do not control, and others."),
    # Two questions in one.
    ("Damages for which losses are excluded, and when?", DISCLAIMS),
])
def test_no_series_answers(question: str, sentence: str) -> None:
    assert series_after(question, sentence) is None
