"""More classes of PHI, one table per class, and the clinical look-alikes of each that must be kept:
places of care named without a head word, multi-part facility names, counties, wards, beds and
theatres, numbers in parts after a label, blood-unit numbers, names joined by a particle, ages of 90
and over in other shapes, hospital handsets, and streets without a house number."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

CARE_PLACES = [
    ("Please write an urgent referral to Moorfields for Mr Tariq Hussain", "Moorfields"),
    ("listed at Beth Israel Deaconess since 2022, UNOS waitlist ID 77120", "Beth Israel Deaconess"),
    ("XRT completed 3/28/24 at Dana-Farber at South Shore. Germline panel", "Dana-Farber at South Shore"),
    ("HD RUN 10-17: PT ON CHAIR 11 AT DAVITA RIVERSIDE. PRE WT 84.6 KG", "DAVITA RIVERSIDE"),
    ("BGL 104. TRANSPORTED TO NORTHSIDE GWINNETT, REPORT TO RN SHAUNA", "NORTHSIDE GWINNETT"),
]
LOWER_CARE_PLACES = [
    ("pt transferred to mgh overnight, family aware", "mgh"),
    ("was at sunnybrook last yr for the same thing", "sunnybrook"),
]
HEADER_PLACES = [
    ("Pediatric Discharge Summary — CHOP\nPatient: Zainab Hassan-Farah", "CHOP"),
    ("XR CHEST PA — Addenbrooke's\nName: PRZYBYLSKI, Tomasz", "Addenbrooke's"),
    ("PULMONARY FUNCTION TEST — AIIMS New Delhi\nSunil Chaudhary, 60M", "AIIMS New Delhi"),
    ("MSICU Progress Note - Sunnybrook, Bed C4-12\nPt Marie-Ève Tremblay", "Sunnybrook"),
    ("Medical Ward Progress Note, UCH Ibadan\nName: Alhaji Musa Danjuma", "UCH Ibadan"),
]
MULTI_PART_FACILITIES = [
    ("Previously treated at KEM Hospital, Parel, for TB.", "KEM Hospital"),
    ("Under NHS Lothian since 2019; transferred care.", "NHS Lothian"),
    ("Referred by her GP at The Elms Surgery, Kettering.", "The Elms Surgery"),
    ("Released from Cook County Jail last week; stayed at Sunnyside Rest Home.", "Sunnyside Rest Home"),
    ("Seen at Ring Road Polyclinic before transfer.", "Ring Road Polyclinic"),
    ("Discharged to David Simpson Hospice House, Cleveland. Meds: morphine", "David Simpson Hospice House"),
    ("Re: Mr Cyril Wetherby, 93, of Laburnum House Care Home, Harrogate", "Laburnum House Care Home"),
    ("Aftercare: Gateway Community Services, Jacksonville, intake 7/18", "Gateway Community Services"),
    ("s/p R TKA 4/22 at Hospital for Special Surgery. ROM 5-98.", "Hospital for Special Surgery"),
    ("DISCHARGE SUMMARY\nChristian Medical College, Vellore\nName:", "Christian Medical College, Vellore"),
    ("Wound check 5/31 at Mount Sinai Queens device clinic.", "Mount Sinai Queens"),
    ("approved for snf at avalon gardens in mesa. transport tomorrow", "avalon gardens"),
]
COUNTIES = [
    ("CASE WORKER B. OKAFOR FROM SONOMA COUNTY CPS, CASE #SC-24-018873", "SONOMA COUNTY"),
    ("TRANSPORT HOME VIA RIVERSIDE COUNTY DIAL-A-RIDE 1330.", "RIVERSIDE COUNTY"),
    ("Lives on a farm in Co. Kerry with her son.", "Co. Kerry"),
]
WARDS_AND_BEDS = [
    ("NIGHT SHIFT SUMMARY - CEDAR WARD, BED 14\nMR ANGUS MACLEOD", "CEDAR WARD"),
    ("Psychiatry Progress Note — 4 East\nMr. Dmitri Volkov reports", "4 East"),
    ("IP No. IP/2024/118274, Bed B-14\nAdmitted 12-Aug-2024", "B-14"),
    ("MSICU Progress Note - Sunnybrook, Bed C4-12\nPt", "C4-12"),
    ("PACU 1340 PT ARRIVED FROM OR 6 S/P LAP CHOLE", "6"),
    ("UP TO UNIT 0230, SHOWN TO ISOLETTE 7. MRN N0048812.", "7"),
    ("tele: pt in 422 (nakashima) had 9 beat run of vt", "422"),
    ("hey can u see rodriguez in 1412 before 5, k 2.9", "1412"),
]
NUMBERS_IN_PARTS = [
    ("Patient: Hauwa Abdullahi Bello, 23F, Folder No. AKTH/OBG/24/0772", "AKTH/OBG/24/0772"),
    ("RE: OLADIPUPO BABAJIDE AKANDE (M, 46 yrs), Hosp No RH/24/55017", "RH/24/55017"),
    ("Yours faithfully,\nDr Chiamaka Obi-Eze, MDCN MDCN/R/41882", "MDCN/R/41882"),
    ("PT: CHUKWUEMEKA NWANKWO-OBI, HOSP NO LUTH/24/11872.", "LUTH/24/11872"),
    ("Leeds General Infirmary. Hosp no RR8 1142397.\nPC: collapse", "RR8 1142397"),
    ("Dr. R. Meenakshi Sundaram, Reg. No. TNMC 81127", "TNMC 81127"),
    ("1045 PRBC UNIT W0366 24 118934 HUNG, BLOOD BANK DOUBLE CHECK", "W0366 24 118934"),
    ("Our ref: JB/KL/0091\nDear Dr Mensah,", "JB/KL/0091"),
    ("Episode No: 4471, admitted via ED", "4471"),
    ("PhilHealth 12-345678901-2 on file", "12-345678901-2"),
    ("CNIC 35202-1234567-1 verified", "35202-1234567-1"),
    ("HKID A123456(7) checked at registration", "A123456(7)"),
]
PARTICLE_NAMES = [
    ("Vein mapping is booked.  Kind regards, Pádraig de Búrca, Consultant", "Pádraig de Búrca"),
    ("GI Progress Note\nCormac Ó Briain, 28M, Crohn's ileocolitis flare", "Cormac Ó Briain"),
    ("Ballymun Health Centre\nRe: Seán Mac Giolla Phádraig, DOB 03/03/1958", "Seán Mac Giolla Phádraig"),
    ("video visit Pt Rosa María Cárdenas de León, 81F, cellulitis LLE.", "Rosa María Cárdenas de León"),
    ("Patient: Ma. Cristina dela Rosa   Age/Sex: 45/F", "Ma. Cristina dela Rosa"),
    ("Dear Sir/Ma, RE: OLADIPUPO BABAJIDE AKANDE (M, 46 yrs)", "OLADIPUPO BABAJIDE AKANDE"),
]
MORE_NAMES = [
    ("12-LEAD ECG\nOkonkwo, Chidinma   ID 5538821   18-Apr-2024 14:02", "Okonkwo, Chidinma"),
    ("CBC RESULT\nNWOSU, EMEKA  MRN 55120938", "NWOSU, EMEKA"),
    ("Education with parents Abdirahman and Hodan completed; Somali interpreter", "Abdirahman"),
    ("UVC PLACED BY NNP TORRES, TIP AT T9.", "TORRES"),
    ("Pt: Wei Zhang (張偉)   PHN 9153 882 614", "張偉"),
    ("labs pending, pls call back -- maria", "maria"),
    ("can you draft a letter about Bisi Adeyemi's CT from 3rd March?", "Bisi Adeyemi"),
    ("hey can u see rodriguez in 1412 before 5, k 2.9", "rodriguez"),
]
DAY_FIRST_DATES = [
    ("Vein mapping for fistula is booked for 21/11.  Kind regards", "21/11"),
    ("asa 81 bid dvt ppx. xr ok. cast check 6-2.", "6-2"),
    ("hiked near Old Lyme, CT over the 7/4 weekend; erythema migrans", "7/4"),
    ("Study night Jan 22-23, 2025. AHI 38/h", "Jan 22-23, 2025"),
]
OLD_AGES = [
    ("Name: Mrs. Annamma Varghese   Age/Sex: 93/F   Hosp No: 418273H", "93"),
    ("Pt F/94 with CCF, on furosemide 40 mg", "94"),
    ("She is in her tenth decade and lives alone.", "tenth decade"),
    ("ED TRIAGE: 103 YOF FROM NURSING HOME, FALL", "103"),
    ("96 yom with CP radiating to jaw", "96"),
    ("A woman of 93 presented with falls.", "93"),
    ("He turned 95 last week and still drives.", "95"),
    ("Family celebrated her 96th birthday on the ward.", "96th"),
    ("Mrs Jones (94) lives alone with a cat.", "94"),
    ("Widowed, 93 yoa, lives alone.", "93"),
    ("Social: she was born in 1929 in Cork and farmed all her life.", "1929"),
    ("DOB: 1931 (day and month unknown)", "1931"),
    # said of a relative or in words: kin as the subject, brackets after kin, an age to come
    ("question about my nan, she is 97 and still gardens", "97"),
    ("Grandad (94 this spring) keeps missing his insulin", "94"),
    ("asking for my aunt who'll be ninety-one next week", "ninety-one"),
    ('he told me "I\'m ninety-six, doc, leave me be"', "ninety-six"),
    ("pt is ninety-nine, frail, DNR", "ninety-nine"),
    ("a neighbour, now 92 and living alone, found on the floor", "92"),
    ("party for his ninety-fifth birthday last sunday", "ninety-fifth"),
    ("BED 4 - MAMA ADA, 95+ YRS, RELATIVE AT BEDSIDE", "95"),
]
# numbers that identify by where they stand: after a signer's name, a door's or a portal's code, an
# aircraft's registration, a court's case number with its kind of case
IDS_BY_PLACE = [
    ("Overread and confirmed by ABERNATHY, JUNE (5520) on 2/3/2024 8:01 AM", "5520"),
    ("Interpreter: Farida Haddad (30417), Dari, by video", "30417"),
    ("visit at home: side door, keypad code 90210#, dog friendly", "90210"),
    ("prior auth sent through the portal, key QT4ZW8PK, awaiting reply", "QT4ZW8PK"),
    ("transport by rotor-wing, tail N512MT, landed 0412", "N512MT"),
    ("Aircraft: Bell 407 N73AM   Crew: RN / paramedic", "N73AM"),
    ("Case No. 2023 JV 004417, hearing set for the guardianship", "2023 JV 004417"),
    ("Cause No. 21-3-00917-2 filed in superior court", "21-3-00917-2"),
]
HANDSETS = [
    ("for questions call Vocera 4471 or the unit desk", "4471"),
    ("RN paged at 5521 about the potassium", "5521"),
    ("the surgical reg is on extn 4417 tonight", "4417"),
    ("sa fille: 06 12 34 56 78 (portable)", "06 12 34 56 78"),
    ("Husband Abdullahi (+234) 803 123 4567 is next of kin", "(+234) 803 123 4567"),
    ("daughter's cell 617‑555‑0182 (word processor dashes)", "617‑555‑0182"),
    ("call back on 617 - 555 - 0182 after 5", "617 - 555 - 0182"),
    ("Fax: 617/555-0182 or 1-(617)-555-0183", "1-(617)-555-0183"),
]
STREETS = [
    ("Found near W Buckeye Rd and S 35th Ave. Cause of death", "W Buckeye Rd"),
    ("Found near W Buckeye Rd and S 35th Ave. Cause of death", "S 35th Ave"),
    ("her pharmacy is the cvs on route 9 in marlboro.", "route 9"),
    ("lives alone, 77 hollis st, nashua nh 03060, 2nd floor", "03060"),
    ("sited, anointing done 1530. family from port harcourt joined on video", "port harcourt"),
    ("Adresse: Damrak 1, 1012 AB Amsterdam, Nederland", "1012 AB Amsterdam"),
    ("Anschrift: Hauptstr. 5, 10115 Berlin", "10115 Berlin"),
    ("Home address: 4 Long St, Cape Town 8001", "Cape Town 8001"),
    ("Postal: P.O. Box 123-00100, Nairobi", "P.O. Box 123-00100"),
]

CASES = cases(
    ("care-place", CARE_PLACES),
    ("lower-care-place", LOWER_CARE_PLACES),
    ("header-place", HEADER_PLACES),
    ("multi-part", MULTI_PART_FACILITIES),
    ("county", COUNTIES),
    ("ward-bed", WARDS_AND_BEDS),
    ("number-parts", NUMBERS_IN_PARTS),
    ("particle-name", PARTICLE_NAMES),
    ("more-names", MORE_NAMES),
    ("day-first", DAY_FIRST_DATES),
    ("old-age", OLD_AGES),
    ("id-by-place", IDS_BY_PLACE),
    ("handset", HANDSETS),
    ("street", STREETS),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # particles inside clinical names
    ("ECG showed Torsades de Pointes after methadone.", "Torsades de Pointes"),
    ("Workup for acquired von Willebrand syndrome with AS.", "acquired von Willebrand"),
    ("Cafe au lait spots; cri du chat; maladie de Charcot.", "maladie de Charcot"),
    # places of care that name a service or a unit, not a place
    ("Transferred to ICU overnight; seen at bedside by Cardiology.", "ICU"),
    ("Discharge Summary — Cardiology", "Cardiology"),
    ("He was started on Lasix at 40 mg; referred to Nephrology.", "Nephrology"),
    ("Seen by Dr. Ward from Orthopaedics; referred to Physiotherapy.", "Physiotherapy"),
    ("WIFE NOTIFIED VIA PHONE. NO TUNNELING NOTED.", "VIA PHONE"),
    ("Discharged to home with VNA. Follow up with Dermatology in 2 weeks.", "Dermatology"),
    ("Admitted to Stroke Unit, then Medical Ward for rehab.", "Stroke Unit"),
    ("Admitted to Stroke Unit, then Medical Ward for rehab.", "Medical Ward"),
    ("Flow 4 L via NC; switched to Venturi mask at 0800.", "Venturi"),
    ("pt to or at 1400. to ct then back to floor. from ed to icu. at baseline. to snf.", "to icu"),
    ("pt to or at 1400. to ct then back to floor. from ed to icu. at baseline. to snf.", "at baseline"),
    ("pt to or at 1400. to ct then back to floor. from ed to icu. at baseline. to snf.", "to snf"),
    ("MAJOR TRAUMA RESUS BAY, ADMITTED TO THE COUNTY HOSPITAL", "THE COUNTY"),
    ("NHS number 943 476 5919 checked; NHS Trust policy applies.", "NHS Trust"),
    ("parents at bedside, updated by RRT at 0400. CNM on call.", "parents at bedside"),
    ("Re: FMLA certification for Mr Jones", "FMLA"),
    ("plan: diuresis — ok", "ok"),
    ("pain improving — better", "better"),
    ("Booked for Day Surgery; Mohs Surgery next month; Cardiac Surgery review.", "Day Surgery"),
    ("Booked for Day Surgery; Mohs Surgery next month; Cardiac Surgery review.", "Mohs Surgery"),
    ("Booked for Day Surgery; Mohs Surgery next month; Cardiac Surgery review.", "Cardiac Surgery"),
    ("lives in a group home; the hotel was noisy. temple pain.", "temple pain"),
    # numbers: fractions, measurements, units of blood, clock times, day-first look-alikes
    ("Plan:\nMetoprolol, Lisinopril  daily\nSodium, Potassium  (BMP) in AM", "Metoprolol, Lisinopril"),
    ("Plan:\nMetoprolol, Lisinopril  daily\nSodium, Potassium  (BMP) in AM", "Sodium, Potassium"),
    ("On insulin since 2021. ECG machine GE MAC 5500.", "since 2021"),
    ("On insulin since 2021. ECG machine GE MAC 5500.", "MAC 5500"),
    ("BiPAP 14/6 overnight; family present 24/7.", "14/6"),
    ("BiPAP 14/6 overnight; family present 24/7.", "24/7"),
    ("VA OD 20/10, GCS 15/15, BP 130/80", "20/10"),
    ("norco rx 10/325 1 tab q6h prn", "10/325"),
    ("Take 1/2 tab at bedtime; order 1/2 tab for tomorrow.", "order 1/2 tab"),
    ("Velocity 92 m/s across the valve. BP 95/60.", "92 m/s"),
    ("RN paged at 0415 about the K of 6.1.", "0415"),
    ("Morse (95) high. SpO2 (94) on RA. Temp 98F.", "SpO2 (94)"),
    ("Morse (95) high. SpO2 (94) on RA. Temp 98F.", "Morse (95)"),
    ("Log roll, turned 90 degrees every 2 h.", "turned 90 degrees"),
    # masks, findings and clinical codes beside the words that lead to a code; a year after a name
    ("N95 mask fit-tested; helicopter pad closed; tail of pancreas N2 nodes", "N95"),
    ("N95 mask fit-tested; helicopter pad closed; tail of pancreas N2 nodes", "N2 nodes"),
    ("key findings 2 lesions; key point 1234 is the dose; code status: full code", "key findings 2"),
    ("key findings 2 lesions; key point 1234 is the dose; code status: full code", "1234"),
    ("billed CPT code 99214; access code blue called at 0400", "99214"),
    ("per the criteria of Dr Okafor (2019), no anticoagulation", "2019"),
    # numbers after a relative or a pronoun that are measurements, not ages
    ("His sats are ok; he is 92% on room air, dad (94 kg) at bedside.", "92%"),
    ("His sats are ok; he is 92% on room air, dad (94 kg) at bedside.", "94 kg"),
    ("Her weight is 95 and stable; HR is 96 and regular.", "is 95"),
    ("Her weight is 95 and stable; HR is 96 and regular.", "is 96"),
    ("Goal: she will be 90 percent weight bearing by week 6.", "90 percent"),
    ("Mother born 1950 in Leeds; DOB 1940 on the old card.", "born 1950"),
    ("Seen in Boston 2019 and Paris 2020. Heparin 5000 units.", "2019"),
    ("DISCHARGED 1500 HOME WITH WIFE.", "1500 HOME"),
    ("Hgb 7.2 to 8.1 after 1 unit PRBC; next unit to hang at 1400.", "1 unit PRBC"),
    ("Route: PO. Omeprazole 20 mg daily.", "Route: PO"),
    ("Chair 2 hours tid; ambulate with PT.", "Chair 2 hours"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
