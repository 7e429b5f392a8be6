"""Classes of PHI that the later tuning notes (dev8-dev15) showed the rules missing in forms, headers
and signatures, one table per class, with examples written here, and the clinical look-alikes of each
that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# a record number before another field's label: "Unit:" is no unit of measure
LABELLED_NUMBERS = [
    ("Patient: Jaylen Brooks (7 mo M)     MRN 3390-117-8      Unit: PICU bed 9", "3390-117-8"),
    ("MRN 00482917\nMg 2.1, K 4.0", "00482917"),
    # after a hospital's acronym and "#", and in spaced groups after an issuer's letters
    ("DOB: 2/28/1959    UIHC #: 0-998-411-7  Dear Tom,", "0-998-411-7"),
    ('NAME:    PRUITT, WILLIAM "BILL" MR#:     GS 41 77 20 ADMIT:   5/1/2075', "GS 41 77 20"),
]
# a name before the credential of a pharmacist, a first assistant, a social worker, a fellowship
CREDENTIALLED_NAMES = [
    ("Please confirm before we fill. Call Marcus RPh 773-252-0419.", "Marcus"),
    ("SURGEON: Olusegun Adeyemi, MD, FACS ASSIST: Cliff Stone, RNFA ANESTHESIA: Dr. Price", "Cliff Stone"),
    ("Discussed with Tamsin Greaves, LMSW, who will call the family.", "Tamsin Greaves"),
]
# a name after kin named by a nearer relative
FURTHER_KIN = [
    ("Family: granddaughter Faith and great-grandson Mason at bedside.", "Mason"),
    ("Her ex-wife Carol called twice.", "Carol"),
    ("stepsister Dana and godmother Imelda visited", "Imelda"),
    ("half-brother Tyrone is the donor candidate", "Tyrone"),
]
# an EHR user name, an initial or two run into a surname, wherever it is written
USER_NAMES = [
    ("L. Fairweather MD dictated but not read, lfairweather / ckim2   job 559018", "ckim2"),
    ("RJ Okonkwo-Bailey, MD/tnguyen D: Jun-03-2022 16:47:19", "tnguyen"),
    ("jpatel 0512   M24082-0003   K+ 6.9 mmol/L", "jpatel"),
    ("[job 120954 | routed to kthomas_mt for editing]", "kthomas_mt"),
    ("Dictated by: Grant Hope, MD      Transcribed by: lfaalogo cc: Frank Okafor, MD", "lfaalogo"),
]
# who did something to a report, after "<verb> by"
DONE_BY = [
    ("Confirmed by STRONG, HOLLIS (4417) on 9/27/2019 10:08:51 AM", "STRONG, HOLLIS"),
    ("Referred by: KEALOHA     Test reason: bradycardia", "KEALOHA"),
    ("Scored by: Crystal Hebert, RPSGT     Interpreting: Vincent Tran, MD", "Crystal Hebert"),
    ("Recipient: Abdirahman Warsame     MRN: HC0412287", "Abdirahman Warsame"),
]
# a surname and a given name with the comma spaced as exports write it, or run together
COMMA_NAMES = [
    ("DISCHARGE SUMMARY NAME : ASHWORTH , KEVIN P UNIT NUMBER : 311-92-07", "ASHWORTH , KEVIN"),
    ("Dictated By : BOGDANOVA , IRINA Attending : ANDERS S. LUND , M.D.", "BOGDANOVA , IRINA"),
    ("ROOM-BED: 312-1 ATTENDING: PRAKASH,NEHA    RESIDENT: OWUSU,KOFI B", "PRAKASH,NEHA"),
]
# a surname made of common words, after the name found before it
SURNAME_WORDS = [
    ("RE: Garrett Two Bulls   DOB 04/19/1979   MRN PRIM-0088174", "Garrett Two Bulls"),
    ("Mother Winona Two Bulls contacted by phone at (605) 455-2817", "Winona Two Bulls"),
    ("I wrote a note to the district transportation director, Mr. Pretty On Top.", "Pretty On Top"),
    ("Theo Gunderson, MD (attending) / NP Kendra Yellow Bird", "Kendra Yellow Bird"),
    # with a nickname between the given name and the surname
    ('Annual Physical Pt: William "Bill" Young        MRN: MW6604218', 'William "Bill" Young'),
    ("Patient: Rich, Augustus (Gus)          DOB: 3/6/2011", "Rich, Augustus (Gus)"),
]
# relatives and clergy after shorthand and titles: the baby's father, daughters, a deputy, an imam
KIN_AND_CLERGY = [
    ("Family (wife Hodan, dtrs Ayaan & Ifrah) gathered", "Ifrah"),
    ("RUBELLA IMMUNE. FOB KAWIKA AT BEDSIDE, SUPPORTIVE.", "KAWIKA"),
    ("brought in by Sheriff's deputy (Dep. Holcomb, badge 4471, Lane County SO)", "Holcomb"),
    ("Contacted Imam Abdullahi Warsame, Masjid Abubakar As-Saddique", "Abdullahi Warsame"),
    ("Lives w/ grandparents Harry & Lena Tsinnijinnie in Tonalea", "Harry"),
    ("Nuer interp needed, CHW Gatluak delivered kit in person", "Gatluak"),
    ("COMMUNITY HEALTH WORKER HOME VISIT Client: Vernon Two Bulls Jr.   Jan 9", "Vernon Two Bulls"),
    ("and 3 kids (youngest Tobi, 9). Attends Redeemed Christian Church", "Tobi"),
    ("Drug court: yes, judge Hale, case mgr Kristy Banks 606-633-0087.", "Hale"),
    ("Subject: mi esposo azucar  Hola doctora Castañeda, my husband", "Castañeda"),
    ('Veteran: Tyrone "T-Bone" Battle    ICN 1012884476V330917', '"T-Bone" Battle'),
    ('Bed 6W-19 Garrity, Francis X. "Frankie"  MRN 0-771-492', "Frankie"),
]
# vehicles and devices: ambulance and fire units, a device's UDI, a certified mail number
VEHICLES_AND_DEVICES = [
    ("PCR #: TCA-88127 Unit: M23     Crew: D. Yazzie EMT-P (lead)", "M23"),
    ("Medic 7 / Engine 14 response to 225 Jefferson Ave", "Medic 7"),
    ("Transport via Scott & White EMS (unit MICU-12), departing 1700.", "MICU-12"),
    (
        "LOT 9110541; UDI (01)08717648210126(17)211130(10)9110541) at 14 atm",
        "(01)08717648210126(17)211130(10)9110541",
    ),
    (
        "VIA FAX AND CERTIFIED MAIL #9589 0710 5270 0412 8836 71 Custodian of Records",
        "9589 0710 5270 0412 8836 71",
    ),
    ("Job #: 188472/441902     Conf #: 31770 CC: Angela Whitebird, NP", "31770"),
    ("call 617-555-0100 x 22 or (508) 555-0138 ext 4417 after 5", "x 22"),
    ("Re: LINDGREN, DALE  last4 6631 Wife states vet fell", "6631"),
    ("medical tent 14 - wristband 0719-2215 - 54M roofer", "0719-2215"),
    ("medical record number 4 4 1 9 0 2 7 date of exam october 3rd", "4 4 1 9 0 2 7"),
]
# a date in a line that has "supper" in it, and a result's date with its value
RESULT_DATES = [
    ("metformin 2 tabs w/ supper, last filled 3/18 - atorvastatin 20 mg", "3/18"),
    ("Pt Petrenko -- INR 4/8 = 2.9. Resume usual dosing.", "4/8"),
    # a text thread's times, a visit to the ED, whose word it is, the end of a clause after "out of"
    ("pt Shirley Banks 7/10 9:03  CHW: Morning Ms. Shirley.", "7/10"),
    ("discharged from GIMC ED 4/10 after found down behind the store", "4/10"),
    ("Progressed to IV heroin ~2017. Last use 2/27 per client.", "2/27"),
    ("Mom ran out of WIC formula 9/25; dad works lettuce harvest", "9/25"),
    ("increasing since June; last drink 9/10 PM. No hx of withdrawal seizures", "9/10"),
]
# an age said of someone found, a pager said to be a number, a chat speaker's user name
SAID_OF = [
    ("mrs Szymanska is 93, 51 kg, cr 1.3, on apixaban 5 bid", "93"),
    ("Mrs. Eleanor Faircloth is ninety-four and her son wants everything done", "ninety-four"),
    ("ortho resident pager is 4471 if they dont call back in 15", "4471"),
    ("Sandy Grant, open tib/fib, Gustilo II jlee: ancef 2g given 14:05", "jlee"),
]
# organisations by the kind of place they are, capitalised in their names, and by their legal form
ORGANISATIONS = [
    ("she was seen by ophthalmology at Mass Eye and Ear in November", "Mass Eye and Ear"),
    ("Walking at the Natick Mall with her sister 3x/wk", "Natick Mall"),
    ("home-delivered meals through Marshall County Council on Aging", "Marshall County Council"),
    ("Referred to Fuel Fund of Maryland 410-235-9080.", "Fuel Fund of Maryland"),
    ("Transport: wheelchair van via Ace Medical Transport, pick up 1300", "Ace Medical Transport"),
    (
        "TO: Brandy Page, Records Dept     Hammond Rhee Partners LLC     FAX: 540-667-3120",
        "Hammond Rhee Partners LLC",
    ),
    (
        "Works as a line installer for Pioneer Valley Electric - outdoors year round",
        "Pioneer Valley Electric",
    ),
]
# a hospital by a name rare in English before the record number it gives
RECORD_PLACES = [
    ("Mr. Ravi Shankar Iyer (DOB 10-Dec-2013; Emory MRN E7720419) in follow-up", "Emory"),
    ("DOB: 11/19/16 Joslin #: J-0884217  Dear Dr. Deshpande:", "Joslin"),
]
# an exported record's top, its fields each on a line of its own
RECORD_TOP = [
    ("741029384 FIH\n9948213\n44019/2k77\n603118\n7/23/1999 12:00:00 AM\nDischarge Summary\nSigned", "FIH"),
    (
        "741029384 FIH\n9948213\n44019/2k77\n603118\n7/23/1999 12:00:00 AM\nDischarge Summary\nSigned",
        "44019/2k77",
    ),
]
# a lower-case census name that a room follows, as a sign-out lists its patients
NAMES_BEFORE_ROOMS = [
    ("s/o to night float: bill in 302, etoh w/d day 2, ciwa 12", "bill"),
    ("fyi jade in 8 pulled her picc again. tip intact", "jade"),
    ("2. gonzalez-ruiz 305 — 99yo hip fx 3. baker 311 — alcohol w/d, ciwa 8", "baker"),
    ("gideon marsh bed 22, last drink saturday night, hx DTs", "gideon marsh"),
]
# a patient named before an age and sex, and a given name as a typed question's subject
QUESTION_PATIENTS = [
    ("pls draft d/c instructions for Harold Two Bears, 71M, going home to Pine Ridge", "Harold Two Bears"),
    ("CXR for Bich Ngoc Tran, 45F, is this worse than yesterday", "Bich Ngoc Tran"),
    ("does faith need ppx for a cat bite? dorsal hand", "faith"),
    ("Does Faith need ppx for a cat bite?", "Faith"),
]
# a given name that is also a word, capitalised after a verb of talking
TALKED_TO = [
    ("called 1-888-693-3211, spoke w/ Marcus, ref # CR-55098124.", "Marcus"),
    ("Discussed with Hope from pharmacy; will recheck.", "Hope"),
]
# a place's article, and streets of other shapes: an expressway, a county road, a Spanish street
PLACES_AND_STREETS = [
    (
        "TELEHEALTH VIDEO VISIT -- The Queen's Medical Center Heart Failure Clinic",
        "The Queen's Medical Center",
    ),
    ("Works as a line cook at The Ivy Inn; shifts 2 PM-midnight", "The Ivy Inn"),
    ("Santa Clara Medical Center 700 Lawrence Expy, Santa Clara, CA 95051", "700 Lawrence Expy"),
    ("Pt lives alone in a trailer at 4410 Co Rd 12, Lot 7, near Albertville.", "4410 Co Rd 12, Lot 7"),
    ("Home: 6120 N Camino de la Tierra, Tucson AZ 85741. Gated community", "6120 N Camino de la Tierra"),
    # a town whose capitalised name begins with a common word
    ("Lives in Many Farms w/ daughter Charlene and 2 grandkids", "Many Farms"),
    ("daughter Karin Wood (from Two Harbors), son-in-law Grant Wood", "Two Harbors"),
]

CASES = cases(
    ("labelled-number", LABELLED_NUMBERS),
    ("credentialled-name", CREDENTIALLED_NAMES),
    ("further-kin", FURTHER_KIN),
    ("user-name", USER_NAMES),
    ("done-by", DONE_BY),
    ("surname-words", SURNAME_WORDS),
    ("comma-name", COMMA_NAMES),
    ("kin-clergy", KIN_AND_CLERGY),
    ("vehicle-device", VEHICLES_AND_DEVICES),
    ("result-date", RESULT_DATES),
    ("said-of", SAID_OF),
    ("organisation", ORGANISATIONS),
    ("place-street", PLACES_AND_STREETS),
    ("record-place", RECORD_PLACES),
    ("talked-to", TALKED_TO),
    ("question-patient", QUESTION_PATIENTS),
    ("name-before-room", NAMES_BEFORE_ROOMS),
    ("record-top", RECORD_TOP),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # a dose in units, written beside its number, is kept
    ("Lantus 40 units at night; heparin 5000 units SC", "5000 units"),
    # a fellowship after a reader's name is no name; the anti-CCP antibody is no credential
    ("Interpreting physician: Miriam Castonguay, MD, FASE", "FASE"),
    ("Serologies (RF, CCP, myositis panel) neg.", "RF, CCP"),
    # a store's number stays with the store's name, as a place
    ("sent a backup Rx to CVS #9921 in case pods run out", "[LOCATION] in case"),
    # a step of a process is no relative
    ("Step-down unit tomorrow; ex-smoker; half-life 12 h", "ex-smoker"),
    # shorthand shaped like an initial and a surname, words after "seen by" in a line with capitals
    ("add clinda for toxin suppression; sleeps late wkdays; msg via inbasket", "clinda"),
    ("sleeps late wkdays; msg via inbasket", "wkdays"),
    ("Cecal intubation confirmed by appendiceal orifice. Withdrawal time 8 min, BBPS 9.", "appendiceal"),
    ("Wound care per podiatry (MultiCare). Seen by podiatry today, ABI 0.8.", "Seen by podiatry"),
    ("recipient: cardiology clearance, dental, TB screening", "cardiology"),
    # a heading, a department or a weekday after a name is no part of it
    ("Patient: Mary Okafor Discharge Summary\nAdmitted 3/2", "Discharge Summary"),
    ("Seen by Dr. Patel Monday; referred to Dr. Lee Cardiology.", "Monday"),
    # units of blood and insulin, a fire engine's oil, fractions of a tablet
    ("transfused 1 unit PRBC; unit 2 of 3 hung; 1/2 tab; strength upper 4/5", "unit 2 of 3"),
    ("strength upper 4/5 lower 5/5", "4/5"),
    # heads of organisations in lower case or alone are words
    ("Transport arranged for 1400. Agency nurse tonight. Electric shock x1 by AICD.", "Electric shock"),
    ("child care issues; network down; the Mall was closed", "child care issues"),
    # a service in brackets after a name is no nickname; the imam of a sentence is no title
    ("Gurinder Bains (Trauma) reviewed.\nDISCHARGE SUMMARY - Trauma / Tory Centre", "SUMMARY - Trauma"),
    ("pt will discuss with his imam.  Condition at discharge: stable.", "Condition"),
    ("FOB NEG. FOB TEST POSITIVE.", "FOB TEST POSITIVE"),
    # the labels of numbers are no hospitals; a month after "per" is a date's, not a name
    ("Accession #: S19-44817 MRN: E2209185; Acct #: 04418275; Conf #: 31770", "Accession"),
    ("Acct #: 04418275 Infant MRN: QV-24-008817", "Acct"),
    ("Discussed with Neurology; per April note", "Neurology"),
    # a frequent word before a room, or before a time, is no patient
    ("asking about the man in 4 East, not urgent.", "the man"),
    ("cefazolin -- LATE, given 1450: pt at MRI; f/u will in 2 weeks", "given 1450"),
    # pain after a time, a rate, a score out of 30, and a count said of a doctor are kept
    ("pain 7/10 after meds; RR 20/min; MoCA 26/30 today; 3/4 per day", "pain 7/10 after"),
    ("MoCA 26/30 today", "26/30"),
    ("Dr Smith is 95% sure; Mr Lee is 90 mg short", "90 mg"),
    # a laceration in capitals is no counsellor's credential; a role is no hospital's acronym
    ("ED TRIAGE 1512 38 YO M AMBULATORY TO TRIAGE, LAC L INDEX FINGER. PERI W/ 2ND DEG LAC", "TRIAGE, LAC"),
    ("HR contact given to CHW Julia Jorkan. Carmen Whitlock, LCSW, transplant SW", "CHW"),
    # a common word before a town's word in lower case or alone
    ("Many thanks for seeing her; In Town tomorrow", "Many thanks"),
    # a group, a bank or a department of no name
    ("First dose given. Group therapy. Blood Bank notified. the Health Department called", "Blood Bank"),
    ("support group weekly; the Health Department called", "Health Department"),
    # sizes and durations after "x" are no extensions; an obstetric history is no code; aspirin,
    # weight and anaesthesia are no names
    ("w/ DM2 x 20 yrs; DES x2 (Xience 3.5 x 28, 3.5 x 15); mesh 6 x 11 cm", "3.5 x 28"),
    ("w/ DM2 x 20 yrs, HTN", "x 20 yrs"),
    ("30 y/o G2P1001 -> G2P2002 presented from OB triage; +accels 15x15", "G2P1001"),
    ("FHR baseline 140, +accels 15x15, no decels", "15x15"),
    ("CAD s/p CABG -- no angina. Continue ASA, BB, high-intensity statin.", "ASA"),
    ("Ht 172 cm   Wt 84 kg   BSA 1.9. Anesthesia: GETA. EBL: 300 mL", "Wt 84"),
    ("Anesthesia: GETA EBL: 300 mL Blood products: 1 unit", "GETA"),
    # a question about a drug, a pronoun or a word; a lady of an age
    ("does amlodipine need a renal dose? does it need a loading dose? can mom have it?", "amlodipine"),
    ("Pt is a pleasant lady, 85F; Worked 22 yrs at the plant", "pleasant lady"),
    # a shortened weekday is no name
    ("Maribel reports good appetite, plays bridge on Tues. AA in Levelland Tues nights", "on Tues"),
    # a hallway bed, the youngest of a family, a judgement
    ("hall bed 3 is open for him", "hall"),
    ("youngest of 5 siblings; hard to judge whether it helped", "judge whether"),
    # a code alone on its line is no record field where no record's top is
    ("Impression:\n2-3 mm\nstable", "2-3 mm"),
    # a nursing note's first line in capitals is no letterhead
    ("PT REFUSING LOVENOX AGAIN THIS AM", "REFUSING LOVENOX"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
