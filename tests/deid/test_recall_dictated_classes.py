"""Classes of PHI that dictated and transcribed hospital notes showed the rules missing (the i2b2
2014 sample notes of bench/deid_eval.py, then the dev4 notes), one table per class, with examples
written here, and the clinical look-alikes of each that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# the footer of a transcribed note: the typists' user names after the doctor's initials, and the
# dictating doctor's user code after the credential
DICTATION_FOOTERS = [
    ("Anika R. Moss, M.D.\nARM:kowalczyk\n\nDD: 02/11/77", "kowalczyk"),
    ("Signed\nTLB/ferro/abbott\n", "ferro/abbott"),
    ("Dictated by:  HOWARD KEANE, M.D.    HK24\n", "HK24"),
    ("Dennis Oyelaran, MD  DO113\nD: 05/02/71", "DO113"),
]
# a month and a two-digit year: a surgery or a study dated to the month
MONTH_YEARS = [
    ("s/p AVR in 6/74, on warfarin since.", "6/74"),
    ("Last colonoscopy 11/85 was normal.", "11/85"),
    ("ECG unchanged compared with 2/91.", "2/91"),
]
# names and places of a record's header lines
HEADERS = [
    ("MARLOWE,JUDITH    771-22-04-1        ADMIT DATE: 03/03/79\n", "MARLOWE,JUDITH"),
    ("              BRAMBLE HILL EMERGENCY DEPT VISIT\n", "BRAMBLE HILL"),
    ("Brought by ambulance to the Kestrel Point Emergency Room.", "Kestrel Point"),
    ("Cardiology follow up with Gilbert R. Vance next month.", "Gilbert R. Vance"),
]
# the numbers of a dictation: a job or document number, a code with a serial after a slash
DICTATION_IDS = [
    ("eScription document: 7-5518823 EMSSten Tel", "7-5518823"),
    ("Job #: 33871\nBatch: 91244", "33871"),
    ("Job #: 33871\nBatch: 91244", "91244"),
    ("____________________        QR418/55213\n\nJ. SMALL, M.D.", "QR418/55213"),
]
# a name after its cue on the next line of a hard-wrapped paragraph
WRAPPED = [
    ("She was admitted for cellulitis and lives at home with her husband\nMarvin, who drives.", "Marvin"),
    ("The patient was seen in follow up this afternoon together with Dr.\nHobbs of urology.", "Hobbs"),
    ("He will be seen again in the next three months by Dr. Xavier\n\nRush for his AF.", "Xavier\n\nRush"),
]
# a name that signs with a credential written with full stops, in any case, whatever its words
SIGNED = [
    ("PRIMARY CARE:  ELSPETH MORROW, M.D.\nDIAGNOSES: 1. Pneumonia", "ELSPETH MORROW"),
    ("cc: Imelda Rush, M.D.; Hamish Okafor, M.D.", "Hamish Okafor"),
    ("Thank you.\nLionel T. Church, M.D.\nLakeside Medical", "Lionel T. Church"),
    ("ATTENDING:  OKAFOR, HAMISH M.D.", "OKAFOR, HAMISH"),
]
# the practice or hospital of a note's letterhead, alone on its line at the top of the note
LETTERHEADS = [
    (
        "Record date: 2077-02-03\n\n        QUINCEWOOD MEDICAL\n        12 Mill Rd",
        "QUINCEWOOD MEDICAL",
    ),
    ("ENDOCRINOLOGY - MARBLEHAVEN\n\nReason: diabetes f/u", "MARBLEHAVEN"),
    ("Tollington Medical - Internal Medicine\nPatient: see below", "Tollington Medical"),
]
# dates of record exports whose years are shifted far ahead; months after a follow-up word
SHIFTED_DATES = [
    ("ADMISSION DATE:  03/14/2108   DISCHARGE DATE: 03/19/2108", "03/14/2108"),
    ("Record date: 2113-06-01", "2113-06-01"),
    ("Colonoscopy last 5/71 per pt, due now.", "5/71"),
    ("Doing well. Return March with labs.", "March"),
    ("RTC May, sooner prn.", "May"),
    ("A1c 8.2 Jan 66, LDL 101 Feb 67.", "Jan 66"),
    ("A1c 8.2 Jan 66, LDL 101 Feb 67.", "Feb 67"),
]
# the typists' initials and names wherever the reference line is written, and a typist's label
TYPISTS = [
    ("Karl Denby, MD\nKD:ostrowski   DD 02/02/71   DT 02/03/71", "KD:ostrowski"),
    ("Sincerely,\nNia Farrow, M.D.\nNF/lindqvist\ncc: Dr. Amos", "NF/lindqvist"),
    ("DICTATED BY:  PAUL VANCE, M.D.\n\nTR:  jw\nDD:  02/20/85", "jw"),
]
# places of work, care and home whose names the rules did not know the heads of, or wrapped
PLACES = [
    ("Scripts from Larkspur Apothecary on Main St.", "Larkspur Apothecary"),
    ("Pharmacy (Kessler Drug on Elm St) ran out.", "Kessler Drug"),
    ("Referral made to Harborline Counseling for CBT.", "Harborline Counseling"),
    ("Lives at Bayview Towers, 4th floor, with her son.", "Bayview Towers"),
    ("Brought by Granby Falls EMS after the fall.", "Granby Falls"),
    ("Cast check at Ridgemont Ortho next week.", "Ridgemont Ortho"),
    ("Echo read in the Bancroft Building on the 4th floor.", "Bancroft Building"),
    ("Letter to Dr. Amos, 220 Broadway, Somerville.", "220 Broadway"),
    ("Patient moved to Rm Ellison 1142 overnight.", "Ellison 1142"),
    (
        "He spent three weeks in rehabilitation at the Whitcombe-Hale\nRehabilitation Hospital after his stroke.",
        "Whitcombe-Hale\nRehabilitation Hospital",
    ),
    ("Re: Harjit Oyelaran, DOB 04/04/2008", "Harjit Oyelaran"),
    ("Follow-up at Valley Family Care next month.", "Valley Family Care"),
]
# names of record headers and sign-offs
RECORD_NAMES = [
    ("PATIENT:  HOLLIS, GIDEON A                  MRN:  LMC-3321", "HOLLIS, GIDEON A"),
    ("NAME:  DEMIRCI-HALE, YUSUF                  UNIT NUMBER: 22", "YUSUF"),
    (
        "WESTBROOK EMERGENCY DEPT VISIT\n\nCHURCH,ABIGAIL   338-52-17-4        VISIT DATE: 11/03/91",
        "CHURCH,ABIGAIL",
    ),
    ("ST. PIERRE,MARGUERITE   805-61-42-9         VISIT DATE: 01/02/90", "ST. PIERRE,MARGUERITE"),
    ("He was seen by the heart failure nurse Clarity Obi for teaching.", "Clarity Obi"),
    ("Labs reviewed. Pneumovax today. RTC 3 mo.\n\nMQR", "MQR"),
    ("621883704 | SRH | 02551147 | | 7733041 | 4/19/2087 12:00:00 AM | CHF | Signed | DIS |", "SRH"),
]
# dev5 (EHR exports): relatives and staff by given name, nicknames, user names, record subjects, wards
DEV5_NAMES = [
    ("Lifting restrictions for 6 weeks; his son Teodor will manage the shop.", "Teodor"),
    ("Ostomy teaching done by WOC nurse Pilar with his wife.", "Pilar"),
    ('Patient: Olufemi "Femi" Adeyemi     DOB: 05/05/2071', 'Olufemi "Femi" Adeyemi'),
    ("Printed 8/22/98 17:04 by rmcdonagh", "rmcdonagh"),
    ("Copied to chart by kdonnelly 3/2/2089.", "kdonnelly"),
    ("Return in 4 weeks.\n-- dvasquezhale (electronically signed)", "dvasquezhale"),
    ("Faxed today.\nekovacs2 -- Emese Kovacs, MD", "ekovacs2"),
    ("RE: Evangelista, Rosario   DOB 08/08/2029", "Evangelista, Rosario"),
    ("Client: Pruitt, Lavinia    Agency ID: CCV-448102", "Pruitt, Lavinia"),
    ("CARDIOLOGY CLINIC NOTE\nRE: DUBROVSKY, MIECZYSLAW\nUNIT #: M0-883-214", "DUBROVSKY, MIECZYSLAW"),
    ("Discharge summary (brief)\nal-Rashid, Yusuf  MRN 3300178824", "al-Rashid, Yusuf"),
    ("Daughter is a nurse on Shapiro 9 here.", "Shapiro 9"),
    ("Step-down bed Blake 7 pending.", "Blake 7"),
    ("Pt: Oduor, Wanjiru  5 Blake, rm 5122", "5 Blake"),
]
# dev5 (EHR exports): places of daily life named by their kind, and a town's quarter
DEV5_PLACES = [
    ("She attends Wat Phrasri Temple in North Chelmsford weekly.", "North Chelmsford"),
    (
        "The animal control officer who called from the South\nWeymouth station is following up.",
        "South\nWeymouth",
    ),
    ("Retired librarian (Robbins Library), walks daily.", "Robbins Library"),
    ("Fell while watching hockey at the Ristuccia Arena.", "Ristuccia Arena"),
    ("Sound engineer at the Paradise Rock Club for years.", "Paradise Rock Club"),
    ("Lives above his son's store (Kowalczyk Hardware on Front St).", "Kowalczyk Hardware"),
    ("US at Quincy Medical in Feb showed gallstones.", "Quincy Medical"),
    ("Near-syncope at Harvard Square T station.", "Harvard Square"),
    ("Apartment near Union Sq, works as a line cook.", "Union Sq"),
    ("Letter for the Lynn Housing Authority appeal done.", "Lynn Housing Authority"),
    ("Transport: chair van, Fallon Ambulance booked 11/10.", "Fallon Ambulance"),
]
# companies of the index lists named without a head word: employers, stores, pharmacies, labs
COMPANIES = [
    ("Lipids drawn at Quest last week.", "Quest"),
    ("Retired after 30 years at General Dynamics in Groton.", "General Dynamics"),
    ("She drives for FedEx, home most nights.", "FedEx"),
    ("Rx sent to the CVS on Blue Hill Ave.", "CVS"),
    ("On her feet all shift at Target.", "Target"),
    ("WORKS NIGHTS AT COSTCO IN AVON.", "COSTCO"),
    ("dialysis at davita mwf", "davita"),
]
# dev5, more: hospital acronyms before a service, abbreviated heads, police and fire, streets without
# a number, date ranges, federal holidays, ages said of a veteran, a reference line after a dash
DEV5_MORE = [
    ("Peds burn not appropriate -- will call MGH burn if needed.", "MGH"),
    ("Outside records: MGH, 4/3 note reviewed.", "MGH"),
    ("Admitted to Tufts MC on 14 Jan.", "Tufts MC"),
    ("PCP: Dr. Halvorsen (Jamaica Plain HC)", "Jamaica Plain HC"),
    ("Takes classes at Bunker Hill CC.", "Bunker Hill CC"),
    ("Brought in by Revere PD after an altercation.", "Revere PD"),
    ("Rx sent to the CVS on River St on 9/6.", "River St"),
    ("Work note given for 3/3-3/5.", "3/3-3/5"),
    ("Even on MLK Day he walked.", "MLK Day"),
    ("Veteran is 90, cognitively intact.", "90"),
    ("Dr. Amos dictated, not read -- TQA/slb #775104", "TQA/slb"),
    ("refill routed. pt: pelletier, roland   dob 6/6/1999", "pelletier, roland"),
]
# dev6 (notes from the US South, Midwest and West, the UK, Canada, Australia, India, Nigeria)
DEV6 = [
    ("Senior review: Dr F Whitaker", "F Whitaker"),
    ("GP:       Dr R Chaudhry, Station Road Surgery, Horsforth", "Station Road Surgery"),
    ("UNIVERSITY MEDICAL CENTER OF EL PASO\nLABOR & DELIVERY", "UNIVERSITY MEDICAL CENTER OF EL PASO"),
    ("BAPTIST HEALTH MEDICAL CENTER - LITTLE ROCK\n9601 BAPTIST HEALTH DR", "LITTLE ROCK"),
    ("Trailer behind the shed, across from Legends Casino.", "Legends Casino"),
    ("Still an usher at Paycor Stadium on weekends.", "Paycor Stadium"),
    ("Lives with her daughter near Dimple Dell Park.", "Dimple Dell Park"),
    ("Billings Clinic Neurology\n2800 10th Ave N, Billings, MT 59101", "2800 10th Ave N"),
    ("Burn clinic tomorrow at 09:00, 2211 Lomas Blvd NE.", "2211 Lomas Blvd NE"),
    ("GSW to R thigh on S Halsted St near 79th.", "S Halsted St"),
    ("Struck by a pickup on Aurora Ave N near N 105th St.", "N 105th St"),
    ("CHI 1403041172 Flat 2/1, 88 Nithsdale Road, Glasgow", "Flat 2/1, 88 Nithsdale Road"),
    ("Lives with wife and daughters Itzel and Marisol.", "Itzel"),
    ("Accepted by structural heart - spoke 2/4 0915.", "2/4"),
    ("BCx 9/8 x2 MSSA, repeat 9/10 NGTD.", "9/10"),
    ("ORIF Jan 23. ICU 18-22 Jan. Mobilising.", "18-22 Jan"),
    ("Ana Mendez, RN, Unit Manager   ext 225", "225"),
    ("Renal fellow 210-358-4000 x 5-2291", "x 5-2291"),
    ("- marcy rn / mtackett4 called back 03:45", "mtackett4"),
    ("Typed: 02/09/2024     Our ref: FMcL/ak", "FMcL/ak"),
    ("e-RS UBRN: 0004 7712 9031", "0004 7712 9031"),
    ("Client: Bohdan K.   PHIN: 118 442 907", "118 442 907"),
    ("Workstation: DSMC-RAD-WS17", "DSMC-RAD-WS17"),
    ("Insulin pump managed by HCMC Endocrine (Dr. Gebremedhin).", "HCMC"),
    ("Follow-up: CHOA asthma clinic in 2 weeks.", "CHOA"),
    ("School bus driver for Lodge Grass Public Schools.", "Lodge Grass Public Schools"),
    ("Ix (12/11/2024, Anand Diagnostic Laboratory): FBS 212", "Anand Diagnostic Laboratory"),
    ("Llandaff North Medical Centre (Cardiff and Vale UHB)", "Cardiff and Vale UHB"),
    ("Insomnia over ~6 weeks (since about mid-March).", "mid-March"),
    ("Return ~late May, before they head to the lake.", "late May"),
    ("Lunch at a restaurant in Alhambra (celebrating Tết with family).", "Tết"),
    ('0005 01/01/2062 - PT STATES "HAPPY NEW YEAR" THEN VOMITED.', "NEW YEAR"),
    ("Recent travel to Mirpur Dec-Jan.", "Dec-Jan"),
    ("Son's graduation from Westerville North on the 27th.", "the 27th"),
    ("NHS No: 438 062 9917     DOB: 30/05/1933 (92)", "92"),
    ("PT SMILED, TEARFUL. PT IS 92, RETIRED NURSE.", "92"),
    ("Dr Morrison\nPollokshields Medical Practice Glasgow\n\nDear Dr Morrison", "Glasgow"),
    ("Brother Declan had CABG in the Mater last year.", "the Mater"),
    ("A session in The Goblet pub on Malahide Road.", "The Goblet"),
    ("Wound check - VUMC Wound Care, One Hundred Oaks, 11/4", "VUMC"),
    ("BROUGHT BY WEST ALLIS FIRE TO OUR EMERGENCY ROOM.", "WEST ALLIS FIRE"),
    ("lives on the hill above his old bakery on marconi ave. stairs x 14.", "marconi ave"),
    ("HE WAS ADMITTED TO THE MICU ON BLAKE 7, STARTED ON OCTREOTIDE.", "BLAKE 7"),
    ("One prior ED visit at OHSU 3/2021 (panic).", "OHSU"),
    ("Infliximab next at RPA, then every 8 weeks.", "RPA"),
    ("[02:14] jpatel4: hey is this the 6c cross cover?", "jpatel4"),
    ("Results - U&E: Cr 92. Filed by HSandhu. Normal.", "HSandhu"),
    ("Admitted after heavy drinking during Dussehra celebrations.", "Dussehra"),
    ("Wants to stop before Paddy's Day as he marshals the parade.", "Paddy's Day"),
    ("Prior gout flares Jan, March, May - all after parties.", "Jan, March, May"),
    ("Manitoba Health number 112 448 901; travel insurance.", "112 448 901"),
    ("Centrelink CRN 204 881 937K - not eligible.", "204 881 937K"),
    ("Booked patient (booking no. ANC/82/1104).", "ANC/82/1104"),
    ("SHO to Prof Hegarty     Bleep 447", "447"),
    ("1) 7B-14 HALVORSEN, Einar 78M - WATCHER", "7B-14"),
    ("[03:10] mrodrigues: 6c-14 cleaned for admit from ed", "6c-14"),
    ("Patient: Ordóñez Chavarría, Wilmer     MRN LAC-93318210", "Ordóñez Chavarría, Wilmer"),
]

CASES = cases(
    ("dictation-footer", DICTATION_FOOTERS),
    ("month-year", MONTH_YEARS),
    ("header", HEADERS),
    ("dictation-id", DICTATION_IDS),
    ("wrapped", WRAPPED),
    ("signed", SIGNED),
    ("letterhead", LETTERHEADS),
    ("shifted-date", SHIFTED_DATES),
    ("typist", TYPISTS),
    ("place", PLACES),
    ("record-name", RECORD_NAMES),
    ("dev5-name", DEV5_NAMES),
    ("dev5-place", DEV5_PLACES),
    ("company", COMPANIES),
    ("dev5-more", DEV5_MORE),
    ("dev6", DEV6),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # ratios and scales of the month/two-digit-year shape
    ("ANA positive 1/80, speckled pattern.", "1/80"),
    ("ANA titer 1/40.", "1/40"),
    ("VA 6/60 right eye, 6/36 left.", "6/60"),
    ("Nodes 3/45 positive for carcinoma.", "3/45"),
    ("Review in clinic in 2/52 with bloods.", "2/52"),
    ("Booked at 8/40, dating scan normal.", "8/40"),
    ("BP 110/80, HR 72.", "110/80"),
    ("Insulin 70/30 12 units qAM.", "70/30"),
    # a department with no name of its own before it
    ("Seen in the adult emergency department overnight.", "adult emergency department"),
    ("Came to our emergency room by car.", "emergency room"),
    # credentials followed by a training grade, and a section line of initials and a word
    ("J. Obi, MD PGY2 covering", "PGY2"),
    ("CXR:\nclear", "clear"),
    # headings of documents and sections, and their clinical words
    ("DISCHARGE SUMMARY\n\nPATIENT: see header", "DISCHARGE SUMMARY"),
    ("TRANSTHORACIC ECHOCARDIOGRAM REPORT\nIndication: dyspnea", "TRANSTHORACIC ECHOCARDIOGRAM REPORT"),
    ("HOME SLEEP APNEA TEST - INTERPRETATION\nAHI 22", "HOME SLEEP APNEA TEST - INTERPRETATION"),
    ("CHAPLAINCY NOTE\nVisited with family.", "CHAPLAINCY NOTE"),
    ("MOLECULAR PATHOLOGY\nKRAS G12C detected.", "MOLECULAR PATHOLOGY"),
    ("Re: CT head from yesterday", "CT head"),
    # wrapped words before a facility head that are no name; a study drug; a year range
    ("She was referred for a formal assessment by vocational\nrehabilitation services.", "vocational"),
    ("Randomised to the study Drug arm in 2019.", "study Drug"),
    ("Attended a team Building day.", "team Building"),
    # a value's decimals before a month, and a dose after an ambiguous month word
    ("A1c 8.2 Jan 66, LDL 101 Feb 67.", "8.2"),
    ("Start aspirin may 81 mg daily.", "may 81 mg"),
    # the words of a contact line after a signer
    ("Mike Ivan, MD, pager 84710", "pager"),
    ("A. Amos, RN, tel 5-4471", "tel"),
    # staff roles before capitalised services and words; usernames' look-alikes; doses after "on"
    ("Seen by Smith, MD, Urology, today.", "Urology"),
    ("Baby to the Well Baby Nursery with nurse.", "Nursery"),
    ("-- orthostasis: stop amlodipine", "orthostasis"),
    ("Printed by anticoag clinic", "anticoag"),
    ("Remains on Lasix 40 daily.", "Lasix 40"),
    ("PT: needs rolling walker.", "needs"),
    ("Questions answered re: randomisation today.", "randomisation"),
    # kinds of place with no name of their own before them; a quarter with no town after it
    ("Seen in the Medical Library for teaching.", "Medical Library"),
    ("Called the Ambulance from home.", "Ambulance"),
    ("Pain in the lower back, radiating north.", "lower back"),
    ("Admitted to General Medical service.", "General Medical"),
    # companies' names as the words they also are, without a place cue; device makers
    ("BP at target today, continue lisinopril.", "target"),
    ("Target BP < 130/80.", "Target BP"),
    ("CVS: RRR, no murmurs.", "CVS"),
    ("Apple juice for hypoglycemia.", "Apple"),
    ("BP by Omron cuff at home 128/76.", "Omron"),
    # look-alikes: an acronym before a service that is no hospital's; CC as chief complaint; a month
    # or weekday before "St"; a murmur's grades; a campus's police
    ("Seen by the ACS clinic yesterday.", "ACS"),
    ("Dr. Amos\nCC: f/u HTN", "CC"),
    ("Seen on Monday St. Luke's called back.", "Monday"),
    ("Murmur grade 2/6-3/6 at the apex.", "2/6-3/6"),
    ("Called CAMPUS POLICE for a welfare check.", "CAMPUS"),
    ("Sats is 92 on room air.", "92"),
    ("pt: stable, afebrile   plan home", "stable, afebrile"),
    # nurses' times and shifts, post-nominal letters, shorthand
    ("TEMP 39.1C AT 2300HRS - TEPID SPONGING DONE.", "2300HRS"),
    ("REHAB NURSING SHIFT SUMMARY  05/09/2096  1900-0700", "1900-0700"),
    ("Seen by Marit Lindqvist, RN, CDCES for pump teaching.", "CDCES"),
    ("Dx: ruptured ectopic.  Dispo: OR -> admit OB.", "Dispo"),
    # a pain score with the time of day; a dose's extension look-alike
    ("Pain 3/10 1400 after the dose.", "3/10"),
    ("Dose given 1/2 tab at bedtime.", "1/2"),
    # clinical acronyms before a service are no hospital's; acronyms in ALL-CAPS lines
    ("Referred to the IBD clinic for biologics.", "IBD"),
    ("PFT lab booked for Tuesday.", "PFT"),
    ("Seen in MFM clinic at 28 weeks.", "MFM"),
    ("PT TO FOLLOW CLINIC IN 2 WKS.", "FOLLOW"),
    # a dose after a drug in capitals; anatomical acronyms after a place preposition
    ("STARTED ON LEVO 4 MCG/MIN.", "LEVO 4"),
    ("Soft murmur at RUSB, pain in RLQ, stenosis in RCA.", "RUSB"),
    ("Occlusion of the left MCA stroke pathway activated.", "MCA"),
    # the ST segment of an ECG is no saint and no street
    ("ECG sinus tach, no ST changes. Trop pending.", "ST changes"),
    ("NON-ST ELEVATION MYOCARDIAL INFARCTION.", "ST ELEVATION"),
    ("EKG shows 1 mm ST elevation in II, III, aVF.", "1 mm ST"),
    # ranges and times of the shape of a unit's bed
    ("Give 1x-2 tabs at night.", "1x-2"),
    ("CKD 3b-4, followed by nephrology.", "3b-4"),
    ("Sitter 7a-7p tomorrow.", "7a-7p"),
    # "the" and a word that names no one place
    ("He asked to be treated at the Clinic where his wife was.", "the Clinic"),
    ("Came in the Spring for a visit.", "the Spring"),
    ("Admitted to the Hospitalist service overnight.", "the Hospitalist"),
    # ordinals that count, not date; a saturation in capitals
    ("Pt is on her 2nd cycle of chemo, 3rd line.", "2nd cycle"),
    ("SATS IS 92 ON RA.", "92"),
    # a time before an address; a quarter that is an organism's initial; a single letter after a title
    ("Burn clinic tomorrow at 09:00, 2211 Lomas Blvd NE.", "09:00"),
    ("Lives at 12 Main St. E. coli grew in the urine.", "E. coli"),
    ("Dr A Team will review.", "Team will"),
    # a note's last line of clinical shorthand or a state; a record header's report type
    ("Allergies reviewed.\n\nNKDA", "NKDA"),
    ("Moved from Boston to\n\nMA", "MA"),
    ("621883704 | SRH | 02551147 | | 7733041 | 4/19/2087 12:00:00 AM | CHF | Signed | DIS |", "DIS"),
    # capitals before a credential that are no name
    ("NOTIFY MD IF SBP > 180 OR HR < 50.", "NOTIFY"),
    ("CODE RECORDER RN AT BEDSIDE.", "CODE RECORDER"),
    ("Plan agreed. Cardiology, M.D. aware.", "Cardiology"),
    # a heading after a wrapped line with a cue at its end; a note's lines of few capitals
    ("Poor PO intake over the last three days as reported by his wife.\nPMH: BPH, CKD 3", "PMH"),
    (
        "Mr. Abbott takes Zocor, Zestril and Lasix.  SKIN:  Warm and dry.  HEENT: \n\n"
        "Normocephalic, atraumatic, pupils are equal, round and reactive to \n\nlight.  The \n\n"
        "testicles are nontender.",
        "atraumatic",
    ),
    (
        "Mr. Abbott takes Zocor, Zestril and Lasix and the groin extends on to the testicles.  The \n\n"
        "testicles are nontender. \n\nPlan as above.",
        "nontender",
    ),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
