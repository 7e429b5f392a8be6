"""Classes of PHI that clinical notes write in ways newspaper-trained NER misses, one table per
class; and the clinical look-alikes of each class that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

NAMES_AFTER_PT = [
    ("pt Min-jun Seo (MRN 55120938) due for labs", "Min-jun Seo"),
    ("pt Latisha Moore needs a refill", "Latisha Moore"),
    ("PT GEORGE HILL RESTING, NO PRN NEEDED.", "GEORGE HILL"),
    ("called pt desmond okafor re results", "desmond okafor"),
    ("email from pt ravindra subramaniam re rash", "ravindra subramaniam"),
    ("Patient Imelda Reyes seen in clinic today.", "Imelda Reyes"),
]
SIGNATURES = [
    ("Plan discussed with family. — Ward, Desmond MD (EM)", "Ward, Desmond"),
    ("Patient: Adebayo, Oluwaseun   MRN: 1180462", "Adebayo, Oluwaseun"),
    ("Session ended 14:50. Priya Raman, LICSW / Tom Berg, MD", "Priya Raman"),
    ("[Marisol Peña, RN, 3/4/24 11:15 AM] thank you for the photos", "Marisol Peña"),
]
LOWER_CASE_NAMES = [
    ("sign-out: - niamh o'sullivan - 88 f, uti, on ceftriaxone", "niamh o'sullivan"),
    ("procedure by dr liang and k. mendez, pa-c. tolerated well", "k. mendez"),
    ("son tariq lives nearby, will drive her home", "tariq"),
    ("all full code except o'brien (dnr/dni)", "o'brien"),
]
NICKNAMES = [
    ('Discharge Summary  Robert "Bobby" Keane / 52M', "Bobby"),
    ('Discharge Summary  Robert "Bobby" Keane / 52M', "Robert"),
    ('Infant: Baby Boy Mensah ("Kwabena")   DOB 10/05', "Kwabena"),
    ('Pt Margarita "Rita" Solis, 74F, admitted', "Rita"),
    ('Alexandra Petrov (goes by "Sasha"), 41F', "Sasha"),
]
STAFF_INITIALS = [
    ("no labs tonight. pager 4-2290\n- tw", "tw"),
    ("HANDOFF TO NIGHT RN MB: S: 61 YO M POD 2", "MB"),
    ("DR OSEI AWARE. - K.L., RRT", "K.L."),
    ("work note faxed to employer.\n- ab pa-c", "ab"),
    ("Tech: RD   Reader: Helen Park, MD", "RD"),
]
PAGERS = [
    ("NSGY RESIDENT PAGED 0215 AT 5-7731, CAME TO BEDSIDE.", "5-7731"),
    ("Called covering MD at x4417 with the result.", "4417"),
]
FACILITIES = [
    ("I think the stress test was done at Harborview Cardiology in May.", "Harborview Cardiology"),
    ("excision booked 3/12 at Seacoast Dermatology, Newton", "Seacoast Dermatology"),
    ("start ot at maplewood hand therapy, return 6 wks", "maplewood hand therapy"),
    ("Pharmacy: Walgreens, 2 Brigham Circle, Boston, MA", "Walgreens"),
    ("school (Quincy High School) liaison notified", "Quincy High School"),
    ("Performing lab: Coastal Genomic Diagnostics, 65 Landsdowne St", "Coastal Genomic Diagnostics"),
    ("NEXT CYCLE 22 OCT AT LAKEVIEW INFUSION CENTER.", "LAKEVIEW INFUSION CENTER"),
    ("Location: Brigham and Women's Faulkner Hospital", "Brigham and Women's Faulkner Hospital"),
    ("rehab at Encompass Health Rehabilitation Hospital of Braintree", "of Braintree"),
]
TOWNS = [
    ("RX SENT TO CVS IN WORCESTER. PT VERBALIZED UNDERSTANDING.", "WORCESTER"),
    ("Lahey Clinic, 41 Mall Road, Burlington MA 01805", "Burlington"),
    ("Transferred from Heywood Hospital (Gardner) overnight", "Gardner"),
    ("pt from Fall River, fent OD, renarcotizing", "Fall River"),
    ("son raj lives in nashua nh, driving down", "nashua"),
    ("BMP in 2 wks at the lab on Winthrop Ave.", "Winthrop Ave"),
    ("T-boned at 35 mph on Route 9 near Natick", "Route 9"),
]
WARDS = [
    ("Structural Heart Clinic, Shapiro 5, 617-555-0136", "Shapiro 5"),
    ("family meeting room 4A, Lunder 6 Neuro ICU", "Lunder 6"),
    ("F/U: Ortho clinic Yawkey 2B on 11/22", "Yawkey 2B"),
]
OTHER = [
    ("TSH 3/4 was 2.1, ok to refill", "3/4"),
    ("HbA1c 6.1% (3/30). Knee pain 4/10", "3/30"),
    ("recheck INR 11/10 at the anticoag lab", "11/10"),
    ("NBS sent, kit # 2311-774-509. Hep B given.", "2311-774-509"),
    ("(meeting ID 933 1882 0417). If the link fails", "933 1882 0417"),
    ("visit completed; client IP 174.21.88.140. Next", "174.21.88.140"),
    ("Sister Mary Agnes, 96, from the convent", "96"),
    ("apt 2C, brought by EMS", "2C"),
    ("Cx drawn 14-Mar-2019, final 3/18", "14-Mar-2019"),
    ("Specimen received 03JAN2024 0815", "03JAN2024"),
    ("On this regimen since 2019-03.", "2019-03"),
    ("cell 555-0142 after 5 pm", "555-0142"),
    ("Sincerely,\nRosalind Achebe\nCardiology", "Rosalind Achebe"),
]
BARE_DATES = [
    ("s/p lap chole 2/3 (uncomplicated), tolerating diet", "2/3"),
    ("Echo 6/10: EF 55%, no effusion", "6/10"),
    ("seen in clinic Tues 4/9 by the fellow", "4/9"),
    ("TELE NOTE 09-03: AVSS, NO EVENTS", "09-03"),
    ("compare his Cr 3/1 vs 3/8 please", "3/8"),
    ("PRIOR ADMIT THANKSGIVING 2021 FOR WITHDRAWAL", "THANKSGIVING 2021"),
    ("on lisinopril Feb-Jun 2023, stopped for cough", "Feb-Jun 2023"),
]
NAME_PAIRS = [
    ("NEPHEW TOMAS LINDQVIST AT BEDSIDE, UPDATED.", "TOMAS LINDQVIST"),
    ("SOCIAL: DAUGHTER LAYLA AL-HASHIMI IS HCP.", "LAYLA AL-HASHIMI"),
    ("HOSPICE AIDE GLORY NWOSU PRESENT FOR BATH.", "GLORY NWOSU"),
    ("pt ana gomez is NPO after midnight", "ana gomez"),
    ("Name: OKAFOR, CHIDI   DOB on file", "OKAFOR, CHIDI"),
    ("Spoke with brother Will Sutton, who will call back.", "Will Sutton"),
    ("Paged overnight. Hope Delaney, MD (nocturnist)", "Hope Delaney"),
]
PLACES_AND_CODES = [
    ("CM WORKING ON BED AT BRIARWOOD REHAB FOR FRIDAY.", "BRIARWOOD REHAB"),
    ("NEW ADDRESS 12 ELM ST, WORCESTER 01609. PCP AWARE.", "WORCESTER 01609"),
    ("brought home to Gloucester 6/2 by family", "Gloucester"),
    ("TX'D TO BIGELOW 11 RM 4 FROM PACU.", "BIGELOW 11"),
    ("hospice referral: Hospice of the Cape, intake pending", "Hospice of the Cape"),
    ("Interpreter #58213 used for consent.", "58213"),
    ("Series archived, study UID 1.2.840.10008.5.1.4.77.", "1.2.840.10008.5.1.4.77"),
    ("Pt 96F with CHF and AS, DNR", "96"),
    ("any advice for Rosalind Pierce, 94? family asks", "94"),
]
CASES = cases(
    ("pt", NAMES_AFTER_PT),
    ("signature", SIGNATURES),
    ("lower", LOWER_CASE_NAMES),
    ("nickname", NICKNAMES),
    ("initials", STAFF_INITIALS),
    ("pager", PAGERS),
    ("facility", FACILITIES),
    ("town", TOWNS),
    ("ward", WARDS),
    ("other", OTHER),
    ("bare-date", BARE_DATES),
    ("name-pair", NAME_PAIRS),
    ("place-code", PLACES_AND_CODES),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    ("XR: displaced femoral neck fx (Garden IV). PMH: HTN", "Garden IV"),
    ("Fall risk high (Morse 65). Skin intact.", "Morse 65"),
    ("Parkinson's disease (Hoehn & Yahr 3), admitted", "Hoehn & Yahr 3"),
    ("12 mm flat lesion (Paris 0-IIa), transverse colon", "Paris 0-IIa"),
    ("Delirium POD 3, cleared by POD 4.", "POD 3"),
    ("NSGY RESIDENT PAGED 0215 AT 5-7731, CAME TO BEDSIDE.", "0215"),
    ("2/6 holosystolic murmur at the apex", "2/6"),
    ("NTG 0.4 SL X1 -> 2/10. MORPHINE 2 MG IV.", "2/10"),
    ("Kawasaki disease (complete, 5/5 criteria + fever)", "5/5"),
    ("Ottawa rules N/A (no trauma).", "Ottawa"),
    ("PER DR HEALEY CONT VANC, AM LYTES.", "CONT VANC"),
    ("BiPAP 14/6 x 36 h in MICU", "x 36 h"),
    ("Framingham risk score 12%", "Framingham risk score"),
    ("PT TOLERATED PROCEDURE, VERBALIZED UNDERSTANDING.", "VERBALIZED"),
    ("Moderate sedation; Swan-Ganz not required.", "Swan-Ganz"),
    ("Amp-sulbactam 3 g IV q6h", "Amp-sulbactam"),
    ("No consolidation, effusion or PTX. 4R node 1.1 cm.", "PTX"),
    ("Stroke clinic in 2 weeks; Liver clinic 1 month", "Stroke clinic"),
    ("Na 135-145, dose 100-1200 mg daily", "100-1200 mg"),
    ("Pain 8/10, improved after morphine.", "8/10"),
    ("RUE strength 4/5. Sensation intact.", "4/5"),
    ("Took 1/2 tab of oxycodone at 0200", "1/2 tab"),
    ("TEMP 99F, HR 96, PT RESTING", "HR 96"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
