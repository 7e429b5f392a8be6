"""One test per HIPAA Safe Harbor identifier category (45 CFR 164.514(b)(2)(i)(A)-(R)) that can occur
in text, in the shapes clinicians write them; and the clinical meaning that must survive."""

from __future__ import annotations

import pytest

from deid import Deidentifier


def redacted(deid: Deidentifier, text: str, phi: str, known: tuple[str, ...] = ()) -> bool:
    """True when every character of the (first) occurrence of `phi` lies inside a PHI span."""
    start = text.index(phi)
    spans = deid.deidentify(text, known_names=known).spans
    return all(
        any(s.start <= i < s.end for s in spans)
        for i in range(start, start + len(phi))
        if not text[i].isspace()
    )


CATEGORIES = [
    # (A) names: patients, relatives, staff; titles and roles; any letter case
    ("A", "Pt seen by Dr. Healey this am, plan discussed.", "Healey"),
    ("A", "pt seen by dr healey in ed", "healey"),
    ("A", "pt seen by smith in ed, c/o cp x3 days", "smith"),
    ("A", "HUSBAND JIM AT BEDSIDE, UPDATED ON PLAN.", "JIM"),
    ("A", "Daughter Ann called for an update.", "Ann"),
    ("A", "Discussed with Maria T. Alvarez, MD, who agrees.", "Maria T. Alvarez"),
    ("A", "RN Ananya Iyer notified of the K of 3.1.", "Ananya Iyer"),
    ("A", "Mrs Okafor is doing well after the switch to apixaban.", "Okafor"),
    # (B) geography smaller than a state, facilities, rooms and beds
    ("B", "Lives at 14 Birch Lane, Apt 3 with her son.", "14 Birch Lane, Apt 3"),
    ("B", "Home address Dorchester, MA 02124.", "Dorchester"),
    ("B", "Home address Dorchester, MA 02124.", "02124"),
    ("B", "TRANSFERRED FROM CALVERT HOSP FOR HIGHER LEVEL OF CARE.", "CALVERT"),
    ("B", "Transferred from GH overnight.", "GH"),
    ("B", "F/u at BIDMC cardiology clinic.", "BIDMC"),
    ("B", "Seen at Boston Medical Center last year.", "Boston Medical Center"),
    ("B", "Moved to room 412, bed B.", "412"),
    # (C) dates except the year, and ages over 89
    ("C", "Abx started 7/22, afebrile since.", "7/22"),
    ("C", "Abx started 7-22, afebrile since.", "7-22"),
    ("C", "DOB 3/14/62.", "3/14/62"),
    ("C", "Seen on July 22, 2023 in clinic.", "July 22, 2023"),
    ("C", "Fever began on 22nd, resolved.", "22nd"),
    ("C", "Last colonoscopy in March showed polyps.", "March"),
    ("C", "92 yo F with CHF exacerbation.", "92"),
    ("C", "A ninety-three year old man with a hip fracture.", "ninety-three"),
    # (D, E) telephone and fax numbers, pagers
    ("D", "Call back at (617) 555-0142 after 5pm.", "(617) 555-0142"),
    ("D", "Paged ortho at pager 4-5521.", "4-5521"),
    ("E", "Fax the records to 617.555.0199.", "617.555.0199"),
    # (F) email addresses
    ("F", "Daughter's email is ann.bhat@example.com for updates.", "ann.bhat@example.com"),
    # (G) social security numbers
    ("G", "SSN 123-45-6789 on the face sheet.", "123-45-6789"),
    # (H) medical record numbers
    ("H", "MRN: 00482913, admitted for cellulitis.", "00482913"),
    # (I) health plan beneficiary numbers
    ("I", "Medicare ID 1EG4-TE5-MK72 verified.", "1EG4-TE5-MK72"),
    # (J) account numbers
    ("J", "Billing account # 55019-2231 flagged.", "55019-2231"),
    # (K) certificate and licence numbers
    ("K", "Prescriber DEA AB1234563 on file.", "AB1234563"),
    # (L) vehicle identifiers and serial numbers, licence plates
    ("L", "MVC: car VIN 1HGCM82633A004352, plate 7XKR219.", "1HGCM82633A004352"),
    ("L", "MVC: car VIN 1HGCM82633A004352, plate 7XKR219.", "7XKR219"),
    # (M) device identifiers and serial numbers
    ("M", "Pacemaker S/N PJN4471822 interrogated.", "PJN4471822"),
    # (N) URLs
    (
        "N",
        "Portal link https://mychart.example.org/visit/8812 sent.",
        "https://mychart.example.org/visit/8812",
    ),
    # (O) IP addresses
    ("O", "Video visit from IP 174.21.88.140 dropped.", "174.21.88.140"),
    # (R) any other unique identifying number or code
    ("R", "Specimen barcode XK-4471-B9 sent to pathology.", "XK-4471-B9"),
    ("R", "Study subject 20231187 enrolled.", "20231187"),
]
# (P) biometric identifiers (finger and voice prints) and (Q) full-face photographs are images and
# recordings, not text: a note can mention that a fingerprint exists, but cannot contain one.


@pytest.mark.parametrize(("category", "text", "phi"), CATEGORIES)
def test_safe_harbor_identifier_is_redacted(deid: Deidentifier, category: str, text: str, phi: str) -> None:
    assert redacted(deid, text, phi), f"({category}) not redacted"


KEEP = [
    "metoprolol 25 mg PO BID, lasix 40 IV",
    "K 3.1, Cr 1.4, WBC 14.2, INR 2.3, HbA1c 8.1%",
    "BP 142/88, HR 112, SpO2 94% on 2L NC",
    "at 0700 and 14:30",
    "cough x3 days",
    "1/2 NS at 75 ml/hr",
    "pain 7/10",
    "strength 5/5",
    "2/6 SEM",
    "Parkinson's",
    "Cushing's syndrome",
    "Crohn's disease",
    "Bell's palsy",
    "Apgar 8/9",
    "Glasgow coma scale 14",
    "Foley catheter",
    "67 yo F",
    "in 2019",
    "BRCA1",
    "CA-125",
]


@pytest.mark.parametrize("term", KEEP)
def test_clinical_meaning_is_kept(deid: Deidentifier, term: str) -> None:
    text = f"Pt with {term} noted on exam, plan reviewed with team."
    result = deid.deidentify(text)
    assert term in result.text, f"{term!r} was redacted: {result.text!r}"


def test_all_caps_nursing_note(deid: Deidentifier) -> None:
    note = "0700 PT RESTING. HUSBAND JIM AT BEDSIDE. PER DR HEALEY CONT VANC. TRANSFERRED FROM CALVERT HOSP ON 7/22."
    out = deid.deidentify(note).text
    for phi in ("JIM", "HEALEY", "CALVERT", "7/22"):
        assert phi not in out
    for kept in ("0700", "HUSBAND", "VANC", "PER DR"):
        assert kept in out
