"""deid's recognizers: one small class per kind of PHI, collected here."""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer

from deid.lexicon import Lexicon
from deid.recognizers.addresses import AddressLabelRecognizer, StreetAddressRecognizer
from deid.recognizers.ages import AgeRecognizer
from deid.recognizers.care_places import (
    CarePlaceRecognizer,
    CareVerbPlaceRecognizer,
    CountyRecognizer,
    HeaderPlaceRecognizer,
    LowerCarePlaceRecognizer,
)
from deid.recognizers.contact import EmailRecognizer, IpRecognizer, PhoneRecognizer, UrlRecognizer
from deid.recognizers.cued_places import (
    AirAmbulanceRecognizer,
    CareAgencyRecognizer,
    DedicationRecognizer,
    HealthPlanRecognizer,
    PoliceRecognizer,
    ResultPlaceRecognizer,
    SchoolRecognizer,
    SupplierRecognizer,
    TheNamedPlaceRecognizer,
    UnionLocalRecognizer,
)
from deid.recognizers.dates import DateRecognizer
from deid.recognizers.described import (
    ChildrenListRecognizer,
    DescribedNameRecognizer,
    SignoutLineRecognizer,
)
from deid.recognizers.dictation import DictationRecognizer
from deid.recognizers.echoes import EmailEchoRecognizer
from deid.recognizers.facilities import (
    EmployerRecognizer,
    FacilityRecognizer,
    LabelledPlaceRecognizer,
)
from deid.recognizers.identifiers import (
    LabelledIdRecognizer,
    RecordTopCodeRecognizer,
    SsnRecognizer,
    UniqueCodeRecognizer,
    VinRecognizer,
)
from deid.recognizers.letterhead import LetterheadRecognizer, RecordHeaderRecognizer
from deid.recognizers.locations import (
    CityStateRecognizer,
    PlaceContextRecognizer,
    TownRecognizer,
    ZipCodeRecognizer,
)
from deid.recognizers.name_particles import (
    ParticleNameRecognizer,
    RecordNameRecognizer,
    ScriptNameRecognizer,
    SignOffNameRecognizer,
)
from deid.recognizers.name_shapes import (
    DictionaryNameRecognizer,
    InitialsSignatureRecognizer,
    KinGivenNameRecognizer,
    MiddleInitialNameRecognizer,
    NameBeforeAgeRecognizer,
    NicknameRecognizer,
    QuestionSubjectRecognizer,
    SystemNameRecognizer,
)
from deid.recognizers.names import ContextNameRecognizer
from deid.recognizers.national_ids import (
    AadhaarRecognizer,
    AuMedicareRecognizer,
    CanadianHealthCardRecognizer,
    NhsNumberRecognizer,
    PpsnRecognizer,
    SinRecognizer,
    UkNinoRecognizer,
)
from deid.recognizers.ner import SpacyNerRecognizer
from deid.recognizers.organisations import OrganisationRecognizer
from deid.recognizers.postcodes import PostcodeRecognizer
from deid.recognizers.town_named import TownNamedPlaceRecognizer
from deid.recognizers.wards import RoomBedRecognizer, WardRecognizer

RECOGNIZER_CLASSES = (
    ContextNameRecognizer,
    DescribedNameRecognizer,
    ChildrenListRecognizer,
    SignoutLineRecognizer,
    EmailEchoRecognizer,
    DictionaryNameRecognizer,
    NicknameRecognizer,
    InitialsSignatureRecognizer,
    MiddleInitialNameRecognizer,
    NameBeforeAgeRecognizer,
    SystemNameRecognizer,
    KinGivenNameRecognizer,
    QuestionSubjectRecognizer,
    ParticleNameRecognizer,
    ScriptNameRecognizer,
    RecordNameRecognizer,
    SignOffNameRecognizer,
    DictationRecognizer,
    LetterheadRecognizer,
    RecordHeaderRecognizer,
    OrganisationRecognizer,
    TheNamedPlaceRecognizer,
    SpacyNerRecognizer,
    DateRecognizer,
    AgeRecognizer,
    PhoneRecognizer,
    EmailRecognizer,
    UrlRecognizer,
    IpRecognizer,
    SsnRecognizer,
    LabelledIdRecognizer,
    VinRecognizer,
    UniqueCodeRecognizer,
    RecordTopCodeRecognizer,
    NhsNumberRecognizer,
    AadhaarRecognizer,
    PpsnRecognizer,
    UkNinoRecognizer,
    CanadianHealthCardRecognizer,
    SinRecognizer,
    AuMedicareRecognizer,
    StreetAddressRecognizer,
    AddressLabelRecognizer,
    ZipCodeRecognizer,
    PostcodeRecognizer,
    CityStateRecognizer,
    FacilityRecognizer,
    LabelledPlaceRecognizer,
    EmployerRecognizer,
    ResultPlaceRecognizer,
    SchoolRecognizer,
    CareAgencyRecognizer,
    HealthPlanRecognizer,
    SupplierRecognizer,
    AirAmbulanceRecognizer,
    DedicationRecognizer,
    PoliceRecognizer,
    UnionLocalRecognizer,
    WardRecognizer,
    CarePlaceRecognizer,
    CareVerbPlaceRecognizer,
    LowerCarePlaceRecognizer,
    HeaderPlaceRecognizer,
    TownNamedPlaceRecognizer,
    CountyRecognizer,
    TownRecognizer,
    RoomBedRecognizer,
    PlaceContextRecognizer,
)


def build_recognizers(lexicon: Lexicon) -> list[EntityRecognizer]:
    return [cls(lexicon) for cls in RECOGNIZER_CLASSES]
