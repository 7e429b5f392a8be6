"""Classes of PHI that the dev2 notes showed the rules missing, one table per class, with examples
written here (not the fixtures' own), and the clinical look-alikes of each that must be kept."""

from __future__ import annotations

import pytest

from deid import Deidentifier
from tests.deid.recall_tables import assert_kept, assert_redacted, cases

# a surname that looks like an inflected English word, after a title and a given name
INFLECTED_SURNAMES = [
    ("Reviewed with Dr Anil Choudhary in clinic today.", "Choudhary"),
    ("Letter copied to Mr Callum Stirling and his GP.", "Stirling"),
]
# clergy and titles of other countries
TITLES = [
    ("Visited by Rev. Sione Taufa on the ward.", "Sione Taufa"),
    ("Termin mit Frau Wiebke Sandmann vereinbart.", "Wiebke Sandmann"),
]
# the labels of a form's name fields, and a middle initial ending a field
NAME_FIELDS = [
    ("Surname: ODUWOLE-GRANT   Forename: Tobenna", "ODUWOLE-GRANT"),
    ("Deceased: Ingvar Halldórsson   Died 03.02.2024", "Ingvar Halldórsson"),
    ("Patient: PETTIGREW, Marisol K   MRN: 5512903", "PETTIGREW, Marisol K"),
    ("Patient: Nakamura, Autumn J.   Age 8", "Nakamura, Autumn J."),
    ("Patient: Desmond Okafor Jr.   DOB 01/02/1950", "Desmond Okafor Jr."),
]
# a surname with its particle after a title or an initial
PARTICLE_NAMES = [
    ("HANDED OVER TO DR VAN RIJN, TEL 4471.", "VAN RIJN"),
    ("Assistant: Dr P. van der Merwe   Anaesthetist", "P. van der Merwe"),
]
# facilities with a plural or a specialty head
FACILITY_HEADS = [
    ("Referred from Sunrise Hospitals, Hyderabad.", "Sunrise Hospitals"),
    ("Office: Lakeshore Rheumatology, 555-0143", "Lakeshore Rheumatology"),
]
# a place after a label that announces one, and an employer after "Employer/sponsor:"
PLACE_LABELS = [
    ("Site of care: Tamarack Infusion Suites. Signature: RN", "Tamarack Infusion Suites"),
    ("Employer/sponsor: Falcon Ridge Catering   Date: 2024", "Falcon Ridge Catering"),
]
# an age of 90 or over said of a person, or set off by commas after a name
AGES = [
    ("can she have ibuprofen? she's 93, 51 kg, on apixaban", "93"),
    ("Her husband Omar is 96 now and still drives.", "96"),
    ("Mrs Aurélie Dufresne, 92, CKD 4, lives alone.", "92"),
    ("Seen with Tia Conceição (95) and her son.", "95"),
    ("BROTHER ALDO, NINETY-FOUR, AT BEDSIDE.", "NINETY-FOUR"),
]
# dates in day-first and foreign shapes
DATES = [
    ("Bloods repeated; LMP 17/08. UPT negative.", "17/08"),
    ("No loin pain. LMP 22/09, cycle regular.", "22/09"),
    ("Admitted with a TIA (21-07), now on clopidogrel.", "21-07"),
    ("Kontroll-Echo am 14.11.: EF 55%.", "14.11."),
    ("Certified dead 04 09 2022 at 06:40.", "04 09 2022"),
    ("Cita el 9 de abril en consulta externa.", "9 de abril"),
    ("Rendez-vous le 3 février 2025 à 10h.", "3 février 2025"),
    ("Opname op 18 augustus 2023 via de SEH.", "18 augustus 2023"),
]
# identifiers after more labels, and in more shapes
IDS = [
    ("Raised by Dr Fenn, GMC 7012345 cc: Mr Harte", "7012345"),
    ("FOLDER NO KHB 4410293. TO THEATRE.", "KHB 4410293"),
    ("Biopsy (report no. SP/24/07731) showed adenoma.", "SP/24/07731"),
    ("EHIC no. 80756 0000 2291 4471 held.", "80756 0000 2291 4471"),
    ("Reg. No. KMC 2011/07/4471, Consultant", "KMC 2011/07/4471"),
    ("KMC Reg. 55102 signed the report.", "55102"),
    ("UHID KIMS.0004471829 admitted to MICU.", "KIMS.0004471829"),
    ("Specimen: LX 3341-228-9104-1 received.", "LX 3341-228-9104-1"),
    ("Visa file 305/2023/4/556120 on record.", "305/2023/4/556120"),
    ("VEHICLE REG 4KT 9PL ON SCENE.", "4KT 9PL"),
    ("Veteran: J Doe   SSN last 4: 4471   Age 80", "4471"),
    ("PhilHealth member 12-050447162-3 verified.", "12-050447162-3"),
    ("Unit: PRBC W0366 24 118934 B transfused.", "W0366 24 118934 B"),
]
# phone numbers in brackets, and a bleep given after "bleep me on"
PHONES = [
    ("DAUGHTER LEILA (+971 55 555 2281) UPDATED.", "+971 55 555 2281"),
    ("pls bleep me on 4471 if worse", "4471"),
]
# rooms, units, floors, theatres and stations
ROOMS = [
    ("Bed: SICU 12 Patient: stable overnight.", "12"),
    ("Vancouver Unit 7C, Room 4", "7C"),
    ("Moved to Floor 14 step-down.", "14"),
    ("Dialysis Centre Eastside, station 9, MWF", "9"),
    ("Taken to Theatre 3 at 14:00.", "3"),
    ("Patient in chambre 208 since Monday.", "208"),
    ("ED POD F, RM 2", "F"),
    ("her roommate in 516 could not sleep, moved to 518.", "518"),
    ("bed 6 on 5 south needs a review", "5 south"),
    ("Transfer to 9 Tower when a bed frees.", "9 Tower"),
]
# streets in German and British shapes, US rural routes, streets in capitals, Dublin districts
STREETS = [
    ("Praxis: Münchner Str. 41, 80802 München", "Münchner Str. 41"),
    ("Anschrift: Berliner Allee 17, Düsseldorf", "Berliner Allee 17"),
    ("lives at 12 Moorland Mount, Bradford", "12 Moorland Mount"),
    ("HOME: RR 3 BOX 214, PIKEVILLE", "RR 3 BOX 214"),
    ("SCRIPTS FROM THE PHARMACY ON KILBOURNE RD.", "KILBOURNE RD"),
    ("mob 0871234567. Address: 14 Lakeview Garden, Mysuru. Aadhaar on file", "14 Lakeview Garden, Mysuru"),
    ("Phibsborough Family Practice, Dublin 9", "Dublin 9"),
]
# places of care and work named by the town after them
TOWN_NAMED = [
    ("CARDIOLOGY REPORT — Meridian Heartcare, Spokane", "Meridian Heartcare"),
    ("Scan done at ScanWorks in Tulsa on Friday.", "ScanWorks"),
    ("He packs boxes at Blue Heron Supply in Fresno.", "Blue Heron Supply"),
    ("NURSES NOTE 0700 - KESTREL VALE HOSPITAL, BED 3", "KESTREL VALE HOSPITAL"),
    ("Follow-up at Harbourside Health Services in 2 weeks.", "Harbourside Health Services"),
]

CASES = cases(
    ("inflected-surname", INFLECTED_SURNAMES),
    ("title", TITLES),
    ("name-field", NAME_FIELDS),
    ("particle-name", PARTICLE_NAMES),
    ("facility-head", FACILITY_HEADS),
    ("place-label", PLACE_LABELS),
    ("age", AGES),
    ("date", DATES),
    ("id", IDS),
    ("phone", PHONES),
    ("room", ROOMS),
    ("street", STREETS),
    ("town-named", TOWN_NAMED),
)


@pytest.mark.parametrize(("text", "phi"), CASES)
def test_class_of_phi_is_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert_redacted(deid, text, phi)


KEEP = [
    # clinical look-alikes of the classes above
    ("Sats is 92% on room air, HR is 95.", "92%"),
    ("Weight was 92 kg, up from 88.", "92 kg"),
    ("CA 19-9 812 -> 64 after chemo.", "19-9"),
    ("CA 15-3 not checked.", "15-3"),
    ("PEEP 14-8 overnight.", "14-8"),
    ("K 4.5. Mg 0.8.", "4.5"),
    ("Give unit 2 of 3 PRBC now.", "unit 2 of 3"),
    ("POD 2 after lap chole, eating.", "POD 2"),
    ("TO ICU 0400, BED 12.", "0400"),
    ("ref 12.5 mg daily", "12.5"),
    ("Plan from Cardiology, Boston team aware.", "Cardiology"),
    ("Hodgkin, Denver protocol discussed.", "Hodgkin"),
    ("Was at Home in Denver all week.", "Home"),
    ("Parkinson's disease, on levodopa.", "Parkinson's"),
    ("3 fold rise in troponin.", "3 fold rise"),
    ("Infuse over 2 hours; Smith IV access fine.", "IV"),
    ("Paediatric Rheumatology review booked.", "Paediatric Rheumatology"),
    ("VISITED 1900-2000, CALM.", "VISITED"),
]


@pytest.mark.parametrize(("text", "term"), KEEP)
def test_clinical_look_alike_is_kept(deid: Deidentifier, text: str, term: str) -> None:
    assert_kept(deid, text, term)
