"""Classes of PHI that the tuning notes of places and organisations and of names in every record form
(dev29, dev30) showed the rules missing, one table per class, with examples written here, and the
clinical look-alikes of each that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from deid.lexicon import Lexicon
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# names with accents the census lists write without them ("Wiśniewski", "Ramírez", "José")
ACCENTED_NAMES = [
    ("Charge RN: Lucy Tran    Float: Tomasz Wiśniewski    Clerk: none", "Tomasz Wiśniewski"),
    ("Interpreter log\nSpanish   Ramírez López, José / 8820046   in person", "Ramírez López, José"),
    ("3:00   DE LEÓN, MARÍA JOSÉ        09/09/1969   PHYSICAL", "DE LEÓN, MARÍA JOSÉ"),
]
# a text thread's speaker by their display name, between the message's time and a role or a colon
THREAD_SPEAKERS = [
    ("[3/14 7:10] Rajesh PT: at the house by 11, will do TUG", "Rajesh"),
    ("[3/14 7:12] brittany y (HHA): there 9-11 for her bath", "brittany y"),
    ("[11/2, 9:05 PM] Oksana: BP 168/94 after the 2nd dose", "Oksana"),
]
# a census or tracking board's row: the room or bed, then the patient "LAST, FIRST"
BOARD_ROWS = [
    ("GEN MED C\n612-1 | AL-HASSAN, YOUSEF | 58M | FULL\n614 | BROWN, FAITH A | 34F | DNR", "612-1"),
    ("GEN MED C\n612-1 | AL-HASSAN, YOUSEF | 58M | FULL\n614 | BROWN, FAITH A | 34F | DNR", "614"),
    ("BED  PATIENT\nA3   YOUNG, ROSALIND     44F   SOB\nB1   DEL CASTILLO-PARK, ANA   71F   fall", "A3"),
    ("BED  PATIENT\nA3   YOUNG, ROSALIND     44F   SOB\nB1   DEL CASTILLO-PARK, ANA   71F   fall", "B1"),
    ("C2   OMAR, ABDI    31M   abd pain\nHALL 2 ACHEAMPONG, KWAME    25M   GSW thigh", "HALL 2"),
]
# the words that end an organisation's name after the place found in it
ORGANISATION_TAILS = [
    ("insurance card (Tufts Health Plan THP0012748305) scanned", "Tufts Health Plan"),
    ("tribal transit van (Oglala Sioux Transit) requested for 7/11", "Oglala Sioux Transit"),
    ("PATIENT CARE REPORT -- CLEARWATER FIRE & RESCUE     Incident # 24-0031187", "CLEARWATER FIRE & RESCUE"),
    ("referred to Lone Star Circle of Care for follow-up", "Lone Star Circle of Care"),
    (
        "Facility: Green Hills Center for Rehabilitation & Healing   Rm 207",
        "Green Hills Center for Rehabilitation & Healing",
    ),
]
# what a person is called, in a bracket after their name, quoted or after a word that says so
CALLED_NAMES = [
    ('Pt: Raymond Tsinajinnie (prefers "Ray")      MRN 7734-0019-2', "Ray"),
    ('Infant: Baby Girl Nakagawa-Ibarra ("Hana")     MRN N2024-117882', "Hana"),
    ("Pt: Margaret Olsen (goes by Peggy), here with her son", "Peggy"),
]

# the people of courts and insurers and the hospital's supervisor on duty, by their role
COURT_AND_PAYER_PEOPLE = [
    ("Parole agent Lutz aware of the appointment on 8/6", "Lutz"),
    ("SITTER REQUESTED FROM HOUSE SUP MBAH. VS T 38.1", "MBAH"),
    ("DV advocate Marisela came to the ED at 1420", "Marisela"),
]

# the given name after a labelled surname's comma (one rule now reads every surname's): in capitals,
# into a sentence, a census name that is also a word
LABELLED_SURNAME_GIVEN = [
    (
        "DISCHARGE SUMMARY\nPatient Name: AL-HADDAD, YUSUF M\nMedical Record #: 60-772-913",
        "AL-HADDAD, YUSUF M",
    ),
    ("INTERNAL MEDICINE\nNAME: OSEI-BONSU, KWAME A\nMRN: BN-00471266", "OSEI-BONSU, KWAME A"),
    ("Patient: Oyelaran, Babatunde was seen in clinic today", "Oyelaran, Babatunde"),
    ("Name: Love, Frank presented with chest pain at 0300", "Love, Frank"),
    ("Name: Love, Frank J. presented with chest pain at 0300", "Love, Frank J."),
    # a given name with an accent or a capital inside it, and one capitalised after capitals
    ("Pt: Ramírez, José   DOB 02/11/1971", "Ramírez, José"),
    ("Pt: Okafor, McKenzie   DOB 01/02/2003", "Okafor, McKenzie"),
    ("Patient: HOLLOWAY, Jasmine R   MRN: 4471", "HOLLOWAY, Jasmine R"),
]

# beds by a unit's code, a nursery's or jail's pod, a homeroom
UNIT_BEDS = [
    ("Disposition: SICU, intubated, bed TSICU-14.", "TSICU-14"),
    ("Consultant: Dr P. Ramaswamy    Bed: AMU-B3-04", "AMU-B3-04"),
    ("NICU pod C, bedspace C-17\nInfant: Baby Girl", "C-17"),
    ("Inmate # HC-2024-44817    Pod 4B    Request slip", "4B"),
    ("Student (Gr 7, homeroom B-212)   T1DM on a pump", "B-212"),
]
# streets without a street word: a quarter's, a grid's, Broadway with its quarter
QUARTER_STREETS = [
    ("Uptown Clinic, 4554 N Broadway, Chicago IL 60640", "4554 N Broadway"),
    ("Sanford Heart - Device Clinic\n801 Broadway N, Fargo, ND 58102", "801 Broadway N"),
    ("Redwood Health Center, 1525 W 2100 S, Salt Lake City, UT 84119", "1525 W 2100 S"),
    ("Gave SSA office info, 3200 W Camelback.", "3200 W Camelback"),
]
# a labour union's local by its number
UNION_LOCALS = [
    ("an electrician with IBEW Local 103, referred for evaluation", "IBEW Local 103"),
    ("Union rep (Local 42) present at the interview", "Local 42"),
]

# a user name of an initial and a surname joined by a dot; a nickname no rule found inside a name
DOTTED_USERS_AND_NICKNAMES = [
    ("wife updated at 808-555-0190.\n-- a.fujimoto MA", "a.fujimoto"),
    ("CC: wrist pain\nTriage RN: ocampo.j", "ocampo.j"),
    ("WORKED BY: D.HERNANDEZ-COLE (PFS) - APPEAL SENT", "D.HERNANDEZ-COLE"),
    ('wc van request\npt: rosalind "roz" kagan, 97, resident', 'rosalind "roz" kagan'),
]
# the YMCA, as "the Y" too; a numbered street in a lower-case note
Y_AND_NUMBERED_STREETS = [
    ('CC: "hurt my wrist at the Y" - slipped by the pool', "Y"),
    ("swims at the Brookline Y most mornings", "Brookline Y"),
    ("YMCA front desk called her daughter", "YMCA"),
    ("rx sent to walgreens on 5th st yesterday", "5th st"),
    # a lab company that is also a word, before its order's or specimen's number
    ("QuantiFERON negative (Quest accession WX449812G).", "Quest"),
    ("Lab courier: Quest req QD-77014362.", "Quest"),
]


@pytest.mark.parametrize(
    ("text", "phi"),
    cases(
        ("accented-name", ACCENTED_NAMES),
        ("thread-speaker", THREAD_SPEAKERS),
        ("board-row", BOARD_ROWS),
        ("organisation-tail", ORGANISATION_TAILS),
        ("called-name", CALLED_NAMES),
        ("court-and-payer-people", COURT_AND_PAYER_PEOPLE),
        ("labelled-surname-given", LABELLED_SURNAME_GIVEN),
        ("unit-bed", UNIT_BEDS),
        ("quarter-street", QUARTER_STREETS),
        ("union-local", UNION_LOCALS),
        ("dotted-user-or-nickname", DOTTED_USERS_AND_NICKNAMES),
        ("y-or-numbered-street", Y_AND_NUMBERED_STREETS),
    ),
)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # a chat's own messages are no speakers; a role alone is no name
    ("[10:02] System: message delivered to care team", "System"),
    ("[10:03 AM] Nurse Station: ok will page", "Nurse Station"),
    # a clinic's day is a list of times, not of rooms
    ("Clinic 11/3\n1000  Nguyen, Bao    back pain\n1040  Gundersen, Erik    INR check", "1040"),
    ("Clinic 11/3\n1000  Nguyen, Bao    back pain\n1040  Gundersen, Erik    INR check", "1000"),
    # a plan that is a document, and a service's (not a place's) name
    ("update his 504 plan and the school's care plan", "care plan"),
    ("arranged Non-emergency medical transportation for 11/4", "medical transportation"),
    # an ethnicity written with its accent is no surname
    ("HPI: 66 yo Diné woman from the reservation w/ DM2", "Diné woman"),
    # a labelled surname's comma before a clinical word, which is no given name
    ("Name: Smith, Mild pain since Monday", "Mild pain"),
    ("seen by Dr Smith, A fib noted on tele", "A fib"),
    ("Protective factors: kids, mamaw, faith.", "faith"),
    # an exposure named for an agent, and a supervisor who is not named
    ("SECONDARY: Agent Orange-associated DM2; PTSD (SC 70%)", "Orange-associated"),
    ("charge nurse and house supervisor aware; advocate for early PT", "advocate for"),
    # the days after an operation, a unit by its floor and service, a local anaesthetic
    ("Extubated POD0. Post-op AF POD2, chest tubes out POD 4", "POD 4"),
    ("Extubated POD0. Post-op AF POD2, chest tubes out POD 4", "POD2"),
    ("transfer to 400 S Medicine when a bed opens", "400 S Medicine"),
    ("Local 1% lidocaine 5 mL infiltrated", "Local 1%"),
    # germs and tests written with a dot, a board's diplomate, the Y chromosome, a day of the month
    ("e.coli in urine, d.dimer neg, s.aureus on swab", "e.coli"),
    ("e.coli in urine, d.dimer neg, s.aureus on swab", "d.dimer"),
    ("Irene Szabo, MD, PhD, D.ABNM", "D.ABNM"),
    ("mosaic loss of the Y chromosome; Y-graft intact", "the Y chromosome"),
    ("seen on the 5th, started 2nd rd of chemo", "2nd rd"),
    ("on a quest for answers; req for labs sent", "quest"),
    ('Dr Smith "the best" Jones', '"the best"'),
    # services and plans named "... Care" or "... Services"
    ("Interpreter Services Encounter\nDate: Feb-03-2022", "Interpreter Services"),
    ("Consultant: Dr Ffion Merriman (Care of the Elderly)", "Care of the Elderly"),
    ("infant at risk for NOWS. Plan of Safe Care (POSC).", "Plan of Safe Care"),
    ("Medicines: Monitored Anesthesia Care (propofol)", "Monitored Anesthesia Care"),
    # a bracket that names a service, not what someone is called
    ("Dr. Gurinder Bains (Trauma) saw him at 0200", "(Trauma)"),
]


@pytest.mark.parametrize(("text", "term"), KEEP, ids=[f"keep-{i}" for i in range(len(KEEP))])
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)


@pytest.mark.parametrize(("written", "census"), [("Wiśniewski", True), ("Núñez", True), ("Grüßen", False)])
def test_accents_are_dropped_for_the_census_but_letters_of_their_own_are_not(
    written: str, census: bool
) -> None:
    # "ß" is a letter of its own: dropping it would make "Grüßen" the census surname "Gruen"
    assert Lexicon.load().is_census_name(written) is census
