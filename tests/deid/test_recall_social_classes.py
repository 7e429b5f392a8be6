"""Classes of PHI that the dev8 and dev9 notes (social histories, sign-outs, record fragments) showed
the rules missing, one table per class, with examples written here, and the clinical look-alikes of
each that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# a place found by one word, completed to its whole proper name (deid.place_runs)
COMPLETED_PLACES = [
    ("Prior care at Kaiser Permanente Roseville, records requested.", "Kaiser Permanente Roseville"),
    ("He was at Mass General last month with the same complaint.", "Mass General"),
    ("Transfer from Memorial Hermann Southeast with severe influenza A pneumonia", "Memorial Hermann"),
    # with the store's number
    ("Plan: losartan refilled to Walmart Pharmacy #0417, Mountain Home.", "Walmart Pharmacy #0417"),
    ("sent a backup Rx to CVS #9921 in case pods run out", "CVS #9921"),
    ("Compare with 2022 study from UCI Health (not available).", "UCI Health"),
    ("POSTPARTUM DISCHARGE SUMMARY — Baylor Scott & White Round Rock\nPatient: K S", "Baylor Scott & White"),
]
# a hospital heading its line or field in capitals, its words common ones
HEADED_HOSPITALS = [
    ("DISCHARGE SUMMARY - ALASKA NATIVE MEDICAL CENTER, ANCHORAGE\nName: X", "ALASKA NATIVE MEDICAL CENTER"),
    ("PCP: RICHARD TALLBEAR, D.O., CHEROKEE NATION W.W. HASTINGS HOSPITAL, TAHLEQUAH\n", "CHEROKEE NATION"),
]
# a place named again, and the short name given to it in brackets
ECHOED_PLACES = [
    ("HKMC records were requested; admitted to Hackettstown Medical Center (HKMC) 3/2.", "HKMC"),
    ('From the Med NICU at 0400. Born at Shelby County Medical Center ("the Med") at 35 wks.', "Med"),
]
# a bare name after a verb of care, less rare than a preposition alone would need
CARE_VERBS = [
    ("Was admitted to Methodist last year with pneumonia.", "Methodist"),
    ("He was taken to Tufts where imaging showed an L1 fracture.", "Tufts"),
    ("Transferred from Mercy on 3/2 for cath.", "Mercy"),
]
# a room after the patient in it, as sign-outs write them
ROOMS = [
    ("cross cover: 89yo in 417 sundowning, got seroquel 12.5 at 2200.", "417"),
    ("fyi mr bill king in 4b keeps asking for his nephew", "4b"),
    ('text from raj: "pt in picu 4 aarav mehta 8y, asthma', "4"),
    ("Mrs Okafor in 302 is asking for her daughter.", "302"),
    ("Date of Surgery: 04/02/2024   OR 14\nSURGEON: A. Venkataraman, MD", "14"),
]
# streets named without a house number: by their quarter and ordinal, or a numbered road
STREETS = [
    ("Prescription verified with Walgreens #07712\n(E 4th St) pharmacist on duty", "E 4th St"),
    ("pharmacy (Discount Drug Mart on E 55th) said prior auth needed", "E 55th"),
    ("Lives in her own house up Lotts Creek off KY-80, ~25 min from town.", "KY-80"),
    ("stopped driving after a minor accident on CR 466.", "CR 466"),
    ("Attn: Admissions\n      3800 US-431, Phenix City, AL 36867", "3800 US-431"),
]
# a user name alone at the very end of a message
CLOSING_USER_NAMES = [
    ("gave copy of note for her gp if recurs. mhealy", "mhealy"),
    ("T: 09/16/2024  Doc ID 44719082  mkraus", "mkraus"),
]
# a high school or school district by its name alone
SCHOOLS = [
    ("SH: 19 yo, senior at Pershing High (football), works downtown", "Pershing High"),
    ("she teaches 4th grade at Lakeview Elementary (Fort Bend ISD), FMLA forms done", "Fort Bend ISD"),
]
# a hospital by its acronym: after "@" or a cue in capitals, and before the number it gives
HOSPITAL_ACRONYMS = [
    ("NICM (cath clean 11/70 @ UIHC), LBBB QRS 162", "UIHC"),
    ("SICKLE CELL CRISIS REQUIRING EXCHANGE TRANSFUSION AT BMC. NO STROKE.", "BMC"),
    ("RE: TRAN, THUY THI   DFCI #: 02-118-774   DOB: 05/05/2050", "DFCI"),
    ("RE: Colleen Fahey-Marsh  MSK MRN 39012877", "MSK"),
]
# a former employer before the trade; a month's abbreviation capitalised mid-sentence
WORK_AND_MONTHS = [
    ("72 yo retired Pratt & Whitney machinist from Wilmington", "Pratt & Whitney"),
    ("70 yo F, former Westinghouse assembly worker (asbestos?)", "Westinghouse"),
    ("2-layer compression kit (ABPI Nov 0.92 R / 0.96 L)", "Nov"),
    ("She lost shifts during the March hospitalization at Moses.", "March"),
    ("intermittent dark stools since about May. He reports naproxen use.", "May"),
]
# numbers that identify: a vaccine's lot, a dictation's index, an aircraft's tail, a masked SSN;
# and an age of 90 or over in brackets after a lower-case name
NUMBERS = [
    ("given today in L deltoid by CMH nurse Gagnon, lot MLB7Z03. Next due April 16.", "MLB7Z03"),
    ("Batch: 61938 Index No. VYMR4K81Q D: 12/04/91", "VYMR4K81Q"),
    ("Transport: Life Link III rotor, tail N911LL, ETA 40 min.", "N911LL"),
    ("Donor ID (last 4 SSN) xxx-xx-4418   CCF Specimen ID 4417730981", "xxx-xx-4418"),
    ("ward round notes mon 24/11: penny wise (93) bed 11 primrose ward", "93"),
    ("Lives in an apartment with husband Vinh (93, has Parkinson's).", "93"),
]
# a name in capitals in a mixed-case note is still one; a given name and a surname capitalised
# mid-sentence are one though both are words
CAPITALS_NAMES = [
    ("Pt: LOPEZ, AVA in bed 3. Daughter AVA LOPEZ called.", "AVA LOPEZ"),
    ("pls draft a dc summary for Mark Young admitted 4/11 dc 4/15", "Mark Young"),
    ("can u summarize Bill Hunter's echos. EF 35%", "Bill Hunter"),
    ("Can you tell me if Brown, Hunter J had a reaction to contrast before?", "Brown, Hunter J"),
    ("Covering for Dr Feldstein tonight. GRANT, MARCUS bed 22B — 58M cirrhosis", "GRANT, MARCUS"),
]
# a relative's or colleague's given name that is also a clinical or common word
ROLE_NAMES = [
    ("Husband Ray brought her in.", "Ray"),
    ("Asthma education completed with RT Marcus and mom.", "Marcus"),
    ("at request of RN Hope on Christmas Eve.", "Hope"),
]
# who a form or a meeting is about or with, after its label
LABELLED_NAMES = [
    ("Present: Margie, daughter Karin Wood (from Two Harbors)", "Margie"),
    ("Veteran: REDHORSE, WALLACE T     DOB: 12/07/1951", "REDHORSE, WALLACE"),
]
# names in quick lower-case notes: introductions, messages' senders, shorthand relatives,
# colleagues, "mr" with a rare surname, and sign-out lines by room and age or record number
LOWER_CASE_NAMES = [
    ("hi its priya (fy2) - can u review mr okoro bay 2", "priya"),
    ("hi dr kapoor this is crystal from willows at eastgate, mrs pettibone fell", "crystal"),
    ("quick q from deb in pharmacy: ok to switch to zyrtec?", "deb"),
    ("she's 98 so dtr carol wants her seen", "carol"),
    ("her bf dustin brought her from the motel", "dustin"),
    ("notified ep fellow yusuf (pgr 4471) - likely ppm in am", "yusuf"),
    ("tto done for mr hussain bed 22. doac switched", "hussain"),
    ("1. hollis, mark rm 718 66m — transferred from st joe's", "hollis, mark"),
    ("fyi lopez, grace mrn 20448190 going to ltach tmr", "lopez, grace"),
    ("wood, rose 96f admitted from Heritage Manor w/ hypoxia", "wood, rose"),
    ("kamalei akana 44f from hilo, flew in to Queens for the whipple", "kamalei akana"),
    ("kamalei akana 44f from hilo, flew in to Queens for the whipple", "hilo"),
]
# sign-out lists and chats: the patient and room starting a line, a user name before its message,
# a first name signing off with its role
SIGNOUTS = [
    ("sign out 12/24\n- mcallister 4112: SBO, NGT to LIWS\n- ng, kevin 4115: GI bleed", "ng, kevin"),
    ("sign out 12/24\n- mcallister 4112: SBO, NGT to LIWS\n- ng, kevin 4115: GI bleed", "4112"),
    ("1. Pham, Lien 814A 78F — CHF exac\n2. Kowalczyk, Bernard 817 94M — delirium", "817"),
    ("bpatel3: anyone know if she got her 2nd dose?\nmhoang: yes ran 0900-1300, no rxn", "mhoang"),
    ("pt pulled out NGT again, wife at bedside upset. mitts? -jess rn", "jess"),
]
# children listed by their ages
CHILDREN = [
    ("lives with wife and 5 children (Wahid 15, Maryam 12,\nBilal 9, Sana 6, Omid 2).", "Bilal"),
    ("stepdad Rafael, and half-brothers Mateo (8) and Gael (5).", "Gael"),
    ("three siblings (Tay, 15, and Nia, 11) at home", "Nia"),
]
# institutions known by a religious dedication, and police departments with their officers
INSTITUTIONS = [
    ("insulin from a friend at church (Our Lady of Guadalupe on Broadway).", "Our Lady of Guadalupe"),
    ("good sam transfer center: accepting jimenez from the valley", "good sam"),
    ("Parishioner at All Saints; visits weekly.", "All Saints"),
    ("Legal: 5150 by SFPD ofc. badge 2214", "SFPD"),
    ("Police (APD Det. Salas) working on ID", "Salas"),
    ("then DFD Medic 22 met them in the lot. DPD notified per protocol.", "DPD"),
    ("27-year-old brought by PPB from the bridge after a fall", "PPB"),
    ("Insurance: Medicare / Anthem supplement\nVendor: Numotion -- Grand Rapids", "Numotion"),
    ("Funeral home: Larkin Mortuary.", "Larkin Mortuary"),
]

CASES = cases(
    ("completed", COMPLETED_PLACES),
    ("echoed", ECHOED_PLACES),
    ("headed-hospital", HEADED_HOSPITALS),
    ("care-verb", CARE_VERBS),
    ("room", ROOMS),
    ("number", NUMBERS),
    ("hospital-acronym", HOSPITAL_ACRONYMS),
    ("school", SCHOOLS),
    ("closing-user-name", CLOSING_USER_NAMES),
    ("work-month", WORK_AND_MONTHS),
    ("street", STREETS),
    ("role-name", ROLE_NAMES),
    ("capitals-name", CAPITALS_NAMES),
    ("labelled-name", LABELLED_NAMES),
    ("lower-case-name", LOWER_CASE_NAMES),
    ("signout", SIGNOUTS),
    ("children", CHILDREN),
    ("institution", INSTITUTIONS),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # a department after a place's name ends the name; a month after a verb of care is no place
    ("Seen at Riverside Methodist ED overnight, then admitted to Medicine.", "ED"),
    ("Seen in Clinic for the same complaint.", "Clinic"),
    ("Admitted to Observation overnight; transferred to Telemetry.", "Observation"),
    # counts and times after a name are no rooms; "OR" between numbers is the conjunction
    ("Follow up with Dr Smith in 2 weeks.", "2 weeks"),
    ("Recheck with Dr Jones in 10 min.", "10 min"),
    ("Take 1 OR 2 tablets at night.", "2 tablets"),
    # a common word after a relative is no name unless it is a given name
    ("Wife Present at bedside. Son will call later.", "Present"),
    # numbered scales are no list of children; APD without an officer is dialysis
    ("Grade 3, Stage 2 disease; GCS 15, RR 22.", "Stage 2"),
    ("On APD overnight at home, 5 exchanges.", "APD"),
    ("COPD notified to the GP; CAPD report reviewed.", "CAPD"),
    # a clinical abbreviation in brackets after a place is not its short name
    ("Seen at Riverside Hospital (ICU) for 3 days.", "ICU"),
    # in lower case: grades of regurgitation, a greeting's small talk, a referral after "sw"
    ("mr severe, mr moderate, mr trace on echo", "severe"),
    ("hi it's late, this is fine", "late"),
    ("pt needs ride - sw referral placed.", "referral"),
    ("modified release: nitrofurantoin 100 mg MR BD for 5/7", "BD"),
    # an answer after a label is no name
    ("Member: yes. Student: no.", "yes"),
    # interleukins, tumour markers, gestational age and sinus rhythm are no roads
    ("IL-6 elevated; on IL-6 blockade; CA 125 of 40; CR 1.2.", "IL-6 blockade"),
    ("DOB: 04/03/2024 22:40   GA 32+5 weeks", "GA 32"),
    # words in capitals, scores and record labels are no hospitals; a trade alone is no employer
    ("CALL LIGHT IN REACH. UP TO BATH WITH ASSIST.", "REACH"),
    ("ICU # 4 bed; EEG #: E76-0219; EMS PCR #24-0331-0877", "EEG"),
    ("retired English teacher; former Army medic; retired RN", "English"),
    # "May" after its subject is the verb
    ("To Whom It May Concern:", "May"),
    ("Pt May need a walker.", "May"),
    # a hospital of clinical words alone, or one after a generic word, is a kind of hospital
    ("TRANSFERRED FROM PAIN MANAGEMENT HOSPITAL\nX", "PAIN MANAGEMENT"),
    ("SEEN AT OUTSIDE HOSPITAL. WENT TO LOCAL MEDICAL CENTER, THEN HOME\nPT STABLE", "LOCAL"),
    # a lot of fluids, the tail of the pancreas, a younger age after a name
    ("gave a lot of fluids; tail of pancreas 4cm", "tail of pancreas"),
    ("Mrs Jones (40) and Dr Smith (62) reviewed.", "(40)"),
    # "max" and "min" in a typed question are the dose's, not Max's
    ("what's the max dose of gabapentin in ckd stage 4? min dose?", "max"),
    # a high risk is no high school
    ("Fall Risk High. Very High risk. C-SSRS HIGH RISK. SAC HIGH LIGATED.", "Risk High"),
    # a department and its ward; a list of words
    ("University College Hospital — Department of Medicine, Ward E2", "Medicine"),
    ("Sodium, Potassium normal. Pain, Fever none.", "Sodium, Potassium"),
    # a disease named for a place; capitalised phrases of a form
    ("Also tested for Rocky Mountain spotted fever (neg).", "Rocky Mountain"),
    ("Hold at Will Call. Patient Education given. Follow Up Care.", "Will Call"),
    # an adjective or a habit before an age is no name
    ("Thank you for referring this pleasant 65-year-old retired teacher. Quit tob 20 yrs ago.", "pleasant"),
    # a time at a line's start is no room; a heading and a time are no name and room
    ("- rechecked 0030: still 2:1, hr 44", "rechecked"),
    ("ED TRIAGE 2212\n97 YO M BIBA", "TRIAGE"),
    ("- NGT to LIWS. SLP eval tmrw, hospice eval 12/26", "LIWS"),
    # a common word after "from" in a line that uses case is no town
    ("Pt came from home; moved from reading to the Normal floor.", "reading"),
    # a closing word that is English is no user name
    ("pt stable. will follow up tomorrow. thanks", "thanks"),
    ("BP ok. continue. resolved", "resolved"),
    # capitals in a mixed-case line, or a word glued to digits, are abbreviations, not names or towns
    ("Severe AS (AVA 0.6 cm2, MG 48 mmHg). Final TIMI 3, 0% residual.", "AVA"),
    ("Final TIMI 3, 0% residual; received ASA 325.", "TIMI"),
    ("CABG x3 (LIMA to LAD, reverse saphenous vein graft)", "LIMA"),
    ("new AF, CHA2DS2-VASc 5, HAS-BLED 3.", "CHA2DS2"),
    # a national programme is nobody's plan
    ("Insurance: Medicare\nPCP: none", "Medicare"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
