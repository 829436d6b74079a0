"""The honest-note style set (#59): notes in the styles real health notes are written in (drug
names, strains, doses, percentages with a space, ratios, gene and vaccine codes) pass when a
page of standing says them, and the same note citing only a page without standing does not
(what standing costs). Each note is written the way a fact-checker would, from its page."""

from __future__ import annotations

import pytest

from pipeline.actions import SupportedClaim, Write
from pipeline.drafting.context import DraftContext
from pipeline.drafting.decide import Verdict, decide
from pipeline.drafting.draft import Draft
from pipeline.drafting.rules import RuleId
from pipeline.evidence import Evidence
from pipeline.post import Post

# (post, page of standing, what the page says, the note)
STYLES = [
    (
        "Raw flour is totally safe to eat, the E. coli thing is a myth.",
        "https://www.cdc.gov/foodsafety/communication/no-raw-dough.html",
        "Outbreaks of E. coli O157:H7 infections in 2016 and 2019 were linked to raw flour. "
        "Raw flour can contain germs that cause illness.",
        "Outbreaks of E. coli O157:H7 infections in 2016 and 2019 were linked to raw flour.",
    ),
    (
        "Masks do nothing, N95s filter nothing at all.",
        "https://www.cdc.gov/niosh/npptl/topics/respirators/disp_part/n95list1.html",
        "NIOSH-approved N95 respirators filter at least 95 % of airborne particles. "
        "They must fit the face to work.",
        "NIOSH-approved N95 respirators filter at least 95 % of airborne particles.",
    ),
    (
        "Paxlovid is just poison, the FDA never approved it.",
        "https://www.fda.gov/news-events/press-announcements/fda-approves-first-oral-antiviral-"
        "treatment-covid-19-adults",
        "The FDA approved Paxlovid (nirmatrelvir tablets and ritonavir tablets) for the treatment "
        "of mild-to-moderate COVID-19 in adults at high risk.",
        "The FDA approved Paxlovid (nirmatrelvir tablets and ritonavir tablets) for the treatment "
        "of mild-to-moderate COVID-19 in adults at high risk.",
    ),
    (
        "The Moderna shot changes your DNA.",
        "https://www.cdc.gov/coronavirus/2019-ncov/vaccines/facts.html",
        "COVID-19 mRNA vaccines such as mRNA-1273 do not change or interact with your DNA in any "
        "way. The mRNA never enters the nucleus of the cell.",
        "COVID-19 mRNA vaccines such as mRNA-1273 do not change or interact with your DNA in any "
        "way.",
    ),
    (
        "Ivermectin cures COVID, 100% of the time.",
        "https://www.fda.gov/consumers/consumer-updates/why-you-should-not-use-ivermectin-treat-"
        "or-prevent-covid-19",
        "The FDA has not authorized or approved ivermectin for use in preventing or treating "
        "COVID-19 in humans or animals.",
        "The FDA has not authorized or approved ivermectin for use in preventing or treating "
        "COVID-19 in humans or animals.",
    ),
    (
        "HPV vaccine causes infertility in 1 of every 2 girls.",
        "https://www.who.int/news-room/fact-sheets/detail/human-papilloma-virus-and-cancer",
        "HPV types 16 and 18 cause about 70% of cervical cancers. There is no evidence that HPV "
        "vaccination affects fertility.",
        "HPV types 16 and 18 cause about 70% of cervical cancers, and there is no evidence that "
        "HPV vaccination affects fertility.",
    ),
    (
        "You need 50,000 IU of vitamin D a day to stop COVID.",
        "https://ods.od.nih.gov/factsheets/VitaminD-HealthProfessional/",
        "The upper limit for vitamin D in adults is 4,000 IU (100 mcg) daily. Intakes above it "
        "can cause toxicity.",
        "The upper limit for vitamin D in adults is 4,000 IU (100 mcg) daily.",
    ),
    (
        "Measles is harmless, nobody dies of it any more.",
        "https://www.who.int/news-room/fact-sheets/detail/measles",
        "In 2023, there were an estimated 107,500 measles deaths worldwide, mostly children under "
        "the age of 5 years.",
        "In 2023, there were an estimated 107,500 measles deaths worldwide, mostly children under "
        "the age of 5 years.",
    ),
    (
        "Diabetics can stop insulin if they drink cinnamon tea.",
        "https://www.niddk.nih.gov/health-information/diabetes/overview/insulin-medicines-"
        "treatments",
        "People with type 1 diabetes must take insulin every day. An HbA1c test shows average "
        "blood glucose over the past 3 months.",
        "People with type 1 diabetes must take insulin every day.",
    ),
    (
        "Cochrane proved masks cause hypoxia.",
        "https://www.cochranelibrary.com/cdsr/doi/10.1002/14651858.CD006207.pub6/full",
        "The review did not assess harms such as hypoxia from wearing masks. The pooled risk "
        "ratio for influenza-like illness was 0.95 (95% CI 0.84 to 1.09).",
        "The Cochrane review did not assess harms such as hypoxia from wearing masks.",
    ),
]
NO_STANDING = "https://healthy-living-tips.example.net/article"


def decided(post: str, url: str, says: str, note: str):  # type: ignore[no-untyped-def]
    context = DraftContext.of(Post(text=post), [Evidence(url=url, title="", excerpt=says)])
    support = [SupportedClaim(claim=note, url=url, quote=note)]
    return decide(context, Draft.parse(Write(text=note, support=support), context.read))


@pytest.mark.parametrize(("post", "url", "says", "note"), STYLES)
def test_an_honest_note_passes_when_a_page_of_standing_says_it(
    post: str, url: str, says: str, note: str
) -> None:
    decision = decided(post, url, says, note)
    assert decision.verdict != Verdict.REFUSED, [f.feedback for f in decision.findings]


@pytest.mark.parametrize(("post", "url", "says", "note"), STYLES)
def test_the_same_note_from_a_page_without_standing_is_refused(
    post: str, url: str, says: str, note: str
) -> None:
    decision = decided(post, NO_STANDING, says, note)
    assert decision.verdict == Verdict.REFUSED
    assert RuleId.NO_STANDING in {f.rule for f in decision.findings}
