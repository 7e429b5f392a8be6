"""Classes of PHI that the dev3 notes showed the rules missing, one table per class, with examples
written here (not the fixtures' own), and the clinical look-alikes of each that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# a weekday written with its date is redacted with it
WEEKDAY_DATES = [
    ("Dressing change due Thurs 12/4 with the district nurse.", "Thurs 12/4"),
    ("family meeting set for Saturday the 6th", "Saturday the 6th"),
    ("REVIEW IN CLINIC TUES 9 APRIL.", "TUES 9 APRIL"),
    ("Stitches out on Friday, March 14 at the practice.", "Friday, March 14"),
    ("bloods again sun 21st", "sun 21st"),
]
# a lab, imaging centre or pharmacy named only by what was done there
RESULT_PLACES = [
    ("Lipids drawn at Sonora Quest last week, LDL 3.1.", "Sonora Quest"),
    ("Blood cultures from Medlab Pacific grew MSSA.", "Medlab Pacific"),
    ("MRI at Akumin showed a disc extrusion.", "Akumin"),
    ("Scripts filled at Kinney Drugs in Oswego.", "Kinney Drugs"),
]
# a school named by its level: "X Elementary" anywhere, "X Primary/Middle/High" after a school cue
SCHOOLS = [
    ("Note for gym class, Maple Grove Elementary, grade 2.", "Maple Grove Elementary"),
    ("DAD SAYS SHE IS IN 1ST GRADE AT ORCHARD RIDGE ELEMENTARY.", "ORCHARD RIDGE ELEMENTARY"),
    ("mum says he's a pupil at st aidan's primary", "st aidan's primary"),
    ("He teaches at Kingsbury High School in the mornings.", "Kingsbury High School"),
    ("school is harlow fields middle, she is in year 8", "harlow fields middle"),
]
# identifiers after more labels, with an issuer's capitals before spaced digits, and a holiday
IDS_AND_HOLIDAYS = [
    ("Member ID: BCBS 448 201 937 on the card.", "BCBS 448 201 937"),
    ("Inquest ref CRN 2024 771203. Family aware.", "CRN 2024 771203"),
    ("Alien registration number A 098-554-217 on file.", "A 098-554-217"),
    ("TRICARE DBN 9876501234, SPONSOR ARMY.", "9876501234"),
    ("Health identifier IHI 8003 6081 66.", "8003 6081 66"),
    ("fell at home on boxing day, fractured wrist", "boxing day"),
]
# an age of 90 or over with the word for years of another language, or bracketed after a title
FOREIGN_AGES = [
    ("Paciente de 93 años, caída en domicilio.", "93"),
    ("Patientin, 96 Jahre, Sturz zu Hause.", "96"),
    ("Mme Girard (91 ans), chute.", "91"),
    ("PAT. HEINZ (98 J.), EXSIKKOSE.", "98"),
    ("nurse says mrs delaney (102) is eating well", "102"),
]
# facilities whose head is a singular specialty or a medical supplier
FACILITY_HEADS = [
    ("Referring: J Ames, PA-C, Cascade Orthopedic   Findings: tear", "Cascade Orthopedic"),
    ("Walker delivered by Tri-County Medical Supply today.", "Tri-County Medical Supply"),
]
# a home-care, hospice or infusion agency after the service it gives
CARE_AGENCIES = [
    ("Wound care Tuesdays. Agency Brightwell 555-0144 on call.", "Brightwell"),
    ("HOME WITH HH FROM KINDWELL, SOC THURSDAY.", "KINDWELL"),
    ("carers from homelink bd, lives alone", "homelink"),
]

CASES = cases(
    ("weekday-date", WEEKDAY_DATES),
    ("result-place", RESULT_PLACES),
    ("school", SCHOOLS),
    ("id-and-holiday", IDS_AND_HOLIDAYS),
    ("foreign-age", FOREIGN_AGES),
    ("facility-head", FACILITY_HEADS),
    ("care-agency", CARE_AGENCIES),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # clinical look-alikes of the classes above
    ("Methotrexate every Monday, 2nd dose tolerated.", "Monday"),
    ("Sunday 2nd dose of the vaccine given.", "Sunday"),
    ("Dialysis Mon Wed Fri, 3 hours each.", "Mon Wed Fri"),
    ("Clinic runs Monday to Friday 9 to 5.", "Monday to Friday"),
    ("Swabs sent to Microbiology and the ED.", "Microbiology"),
    ("Group and save sent to Blood Bank.", "Blood Bank"),
    ("Biopsy sent to Histology, results in 5 days.", "Histology"),
    ("Bloods drawn at Home by the district nurse.", "Home"),
    ("Echo by Cardiology showed EF 40%.", "Cardiology"),
    ("He goes to the local high school and plays rugby.", "local high school"),
    ("Elementary particles of the history were confirmed.", "Elementary"),
    ("elementary school age child with wheeze", "elementary school"),
    ("Goes to theatre high on the list tomorrow.", "theatre high"),
    ("DC cardioversion at 100 J, sinus restored.", "100 J"),
    ("Defibrillated 120 J; ROSC after 2 cycles.", "120 J"),
    ("Referred to Orthopedic Surgery for review.", "Orthopedic Surgery"),
    ("Pediatric Orthopedic clinic next week.", "Pediatric Orthopedic"),
    ("Good blood supply to the flap.", "blood supply"),
    ("mr hale sats (94) on air", "(94)"),
    ("agency nurse on tonight, carers from Monday", "agency nurse"),
    ("carers from Monday, twice daily", "Monday"),
    ("HH RN VISIT 1400, WOUND CLEAN.", "RN VISIT"),
    ("Caregiver is husband, hospice is aware.", "hospice is aware"),
    ("ID 23 45 67 on the chart is the bay layout.", "23 45 67"),
    ("Order 12 tabs of 5 mg, ref 2 3 for the pharmacist.", "2 3"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
