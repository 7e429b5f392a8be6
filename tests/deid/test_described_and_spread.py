"""Classes of PHI that sign-outs, chat questions and letters write without the usual cue, one table
per class; and, for each class, the clinical look-alikes that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.test_safe_harbor import redacted

# A name is what sits before an age and sex, beside a bed, or before a role in brackets.
DESCRIBED = [
    ("pain 2/10, d/c once tol po - bed 12: frank lopez 61 m, sbo on ct", "frank lopez"),
    ("icu night events: - dlamini (bed 4) desatted to 85 on vent.", "dlamini"),
    ("Summarize overnight events for Grant in bed 3B. Also did the blood", "Grant"),
    ("quick: drew (ms3) presented pt in rm 14.", "drew"),
    ("- ruiz, carmen 72f, uti on ctx; - abara, ngozi 64 m, chf", "ruiz, carmen"),
    ("wife of bed 4 (thandiwe) wants a call at 8am.", "thandiwe"),
    ("Handoff: Okoro Chidi 34 y.o. G2P1 at 33w, contracting", "Okoro Chidi"),
]
# The words of an email address are its owner's names wherever the text writes them.
EMAIL_ECHOES = [
    ("draft a reply to dana.roux@gmail.com — Dana Roux emailed on the 5th", "Dana Roux"),
    ("brca testing (sunita rao, gc, srao@faulknergenetics.org)", "sunita rao"),
]
# A given name that is also a word, alone between its cue and the end of its clause; a rare word so.
GIVEN_NAME_ALONE = [
    ("sbo on ct, ngt placed, surgery (dr will) aware, admit gen surg", "will"),
    ("nsg sign out rn hope -> rn bao tran: bed 22", "hope"),
    ("PUREE DIET, NECTAR THICK LIQ PER SLP HOPE. ASPIRATION PRECAUTIONS", "HOPE"),
    ("I'd like to know before then. Thanks, Ray", "Ray"),
    ("specimen to path. surgeon hamid, asst c. white. home tomorrow", "hamid"),
    ("specimen to path. surgeon hamid, asst c. white. home tomorrow", "c. white"),
    # roles as they are named in UK, Irish and Indian notes
    ("pt's attendant ramesh wants discharge. gp aware.", "ramesh"),
]
# Writers who capitalise only acronyms write names in lower case too.
LOWER_CASE_WITH_ACRONYMS = [
    ("remind me what we decided for frankie's kidney stone - 7mm on CT 4/11, flomax or urology?", "frankie"),
    ("Plan: pcp listed as dr angela brown -> keep seeing her at BHCHP.", "angela brown"),
]
# Name shapes: a given name with its initial after "Surname,"; an initial and a rare surname; a
# given name that is also a word before a surname; a name given in words; a name opening a sentence.
NAME_SHAPES = [
    ("Discharge Summary - Cardiology (CCU) Name: Love, Frank J.     MRN 7718204", "Love, Frank J."),
    ("Call 617-555-0179 if vomiting and cannot take HC. Yang / R. Oduya", "R. Oduya"),
    ("can you look at the CXR for Long Nguyen (mrn 66410982) from 07/08/23", "Long Nguyen"),
    ("her maiden name is Key, per the old chart", "Key"),
    ("Sometimes people call me Csanad, he told the nurse", "Csanad"),
    ("Collateral obtained. Sue reports he fell twice this week.", "Sue"),
]
# A name found after a cue is the same name where the text repeats it or lists it with another.
SPREAD = [
    ("Seen with Dr Moreau, Haddad and Lindqvist today.", "Lindqvist"),
    ("Okafor's daughter called the unit. Mr Okafor agrees with the plan.", "Okafor"),
]
# Places of work and study, and places written in lower case after a facility.
WORKPLACES = [
    ("Social: works as a welder at General Dynamics. Asked by Dr Whitmore", "General Dynamics"),
    ("25 y/o single F, grad student at Tufts, BIBA after roommate found her", "Tufts"),
    ("Ms. Villalobos is missing work at Mass General Brigham billing office", "Mass General Brigham"),
    ("Employer (for reference): Polar Beverages warehouse, non-driving role.", "Polar Beverages"),
    ("CDL holder - notify employer Walpole Freight Lines per DOT rules", "Walpole Freight Lines"),
    ("encounter enc-77120493. f/u surgical associates of needham 10/28.", "associates of needham"),
]
# Short numbers and codes whose cue is not right before them.
CODES_AND_BEDS = [
    ("also whats the cath lab pager again, 6-2244?", "6-2244"),
    ("Leave Administrator Employee ID MM-228104 / Claim # STD-2024-0418-77", "MM-228104"),
    ("TAKEN HOME BY COUSIN TYRONE, VEHICLE PLATE 7KT 449 PER SECURITY.", "7KT 449"),
    ("Observation unit (CDU), room 14, bed B  Reason for admission: syncope", "B"),
    # a scale word of the sentence before does not make a date a score
    ("improved to 3 BMs/d, pain 2/10. Flex sig 3/5: Mayo endoscopic 3, CMV IHC neg", "3/5"),
    # a street written "St" where no saint's name follows it
    ("fill history (Surescripts), pharmacy CVS Main St, Reading MA", "Main St"),
]
CASES = [
    pytest.param(text, phi, id=f"{group}-{i}")
    for group, table in (
        ("described", DESCRIBED),
        ("email-echo", EMAIL_ECHOES),
        ("given-alone", GIVEN_NAME_ALONE),
        ("lower-acronyms", LOWER_CASE_WITH_ACRONYMS),
        ("shape", NAME_SHAPES),
        ("spread", SPREAD),
        ("workplace", WORKPLACES),
        ("code-bed", CODES_AND_BEDS),
    )
    for i, (text, phi) in enumerate(table)
]


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert redacted(deid, text, phi), deid.deidentify(text).text


def test_repeat_of_a_name_that_is_also_a_word_is_redacted(deid: Deidentifier) -> None:
    text = "Plan: pcp listed as dr angela brown -> pt prefers to keep seeing brown at BHCHP.\nSocial: lives alone"
    start = text.rindex("brown")
    spans = deid.deidentify(text).spans
    assert any(s.start <= start and start + len("brown") <= s.end for s in spans), deid.deidentify(text).text


KEEP = [
    ("Pt is a pleasant 61 M with obese 45 F sister", "pleasant 61 M"),
    ("dr will call back in the am. son will drive her home.", "will call"),
    ("PT MAY. AMBULATE WITH WALKER.", "PT MAY"),
    ("Ivan Petrov, CRNA (MAC, propofol 280 mg total)", "MAC"),
    ("OPAT REFERRAL SENT TO OPAT.NURSES@CEDARVALE.ORG", "OPAT REFERRAL"),
    ("email cardiology.referrals@mgh.org re the cardiology referral", "the cardiology referral"),
    ("remind me about the flomax trial or urology referral for this pt", "flomax trial"),
    ("TTE no LV thrombus, LA 4.6 cm. Apixaban 5 mg BID", "LV thrombus"),
    ("HENRY WHITE SLEPT WELL. WHITE COUNT TRENDING UP.", "WHITE COUNT"),
    ("WIFE JUNE BROWN AT BEDSIDE. NO BROWN URINE SO FAR.", "BROWN URINE"),
    ("Seen by Dr Bell today. Exam: Bell's palsy, started prednisone.", "Bell's palsy"),
    ("Cultures: C. Albicans and S. Marcescens, ID following.", "C. Albicans"),
    ("Works at a bakery; works for the city. Working with OT at home.", "Works at a bakery"),
    ("Employer (Suffolk Construction) FMLA forms completed.", "FMLA forms"),
    ("Will was here overnight; May need a repeat film.", "May need"),
    ("Plan per Dr Okonjo, Cardiology, and the stroke team.", "Cardiology"),
    ("pager since 1200, no calls. Heparin 18 units/kg/hr.", "1200"),
    ("lying in bed a lot, ate 50% of tray", "bed a lot"),
    ("RUE strength 4/5. Sensation intact. Grip 5/5, deltoids 4/5; biceps 5/5.", "biceps 5/5"),
    ("Meds: Zofran 4 mg SL q6h PRN, Tums St, senna qHS", "Tums St"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    out = deid.deidentify(text).text
    assert term in out, out
