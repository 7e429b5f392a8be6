"""The people in a dictated note's footer: the transcription reference line ("XGT:holmes",
"GPP/church/olinger": the dictating doctor's initials, then the user names of whoever typed and
checked the note), the typist's initials ("TR: lg"), the user code after a signer's credential
("FILBERT BRIGHT, M.D.    FB59") and EHR user names ("Printed by rmcdonagh").
These are written in lower case or as codes, so neither the name lists nor the NER model see them.
"""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES, ROLES, TITLES
from deid.recognizers.names import CREDENTIAL_WORDS
from deid.types import NAME

# A surname run into an initial is taken for a user name only if the census ranks it this high.
USER_SURNAME_RANK = 50_000
COMMON_ZIPF = 4.0
# The roles a text thread writes after its speakers' names: "Rajesh PT:", "brittany y (HHA):".
CHAT_ROLES = "pt|ot|rn|lpn|lvn|md|do|np|pa|slp|hha|cna|msw|sw|cm|rt|ma|pharmd|aide|charge"
# Training years and grades written after a credential are not user codes: "MD PGY2", "RN R3".
TRAINING_GRADE = re.compile(r"(?:PGY|MS|R|HO|PG|FY|ST|CT)\d", re.IGNORECASE)


class DictationRecognizer(RegexRecognizer):
    ENTITY = NAME
    FLAGS = re.MULTILINE
    PATTERNS = (
        # the doctor's capitals, then one or more lower-case user names, at the start of a line and
        # alone on it or before the dictation's dates: "EO/marsh", "BE:holmes   DD 06/26/85"
        (
            "transcription_line",
            r"(?:^[ \t]*|--[ \t]*)(?P<phi>[A-Z]{2,4}[:/][a-z]{2,15}(?:[/:][a-z]{2,15})*)(?=[ \t]*$|[ \t]{2,}\S|[ \t]+\#)",
            0.7,
        ),
        # a letter's reference, the writer's and the typist's initials: "Our ref: FMcL/ak"
        (
            "letter_reference",
            r"\b(?:Our|Your|OUR|YOUR)\s+(?:ref|Ref|REF)\.?\s*:?\s*(?P<phi>[A-Za-z]{2,5}/[A-Za-z]{2,5})\b",
            0.7,
        ),
        # the user names of a chat export: "[02:14] jpatel4: hey is this the 6c cross cover?", and
        # without the time, a user name shaped like one at a line's start: "mhoang: yes ran 0900"
        ("chat_user", r"\[\d{1,2}:\d{2}(?::\d{2})?\][ \t]*(?P<phi>[A-Za-z][A-Za-z0-9._-]{2,24})[ \t]*:", 0.7),
        ("line_user_name", r"^[ \t]*(?P<phi>[a-z]{5,16}\d{0,3}):[ \t]", 0.6),
        # a text thread's speaker by their display name, after the message's date and time and before
        # a role: "[3/14 7:10] Rajesh PT: I'm at 11", "[3/14 7:12] brittany y (HHA): there 9-11"
        (
            "chat_speaker",
            r"^[ \t]*\[(?:\d{1,2}/\d{1,2}(?:/\d{2,4})?,?[ ]+)?\d{1,2}:\d{2}(?::\d{2})?(?:[ ]?[AaPp]\.?[Mm]\.?)?\]"
            r"[ \t]*(?P<phi>[^\W\d_][\w'’-]*(?:[ ][^\W\d_][\w'’.-]*){0,2}?)"
            rf"(?:,?[ ]\(?(?i:{CHAT_ROLES})\)?)?[ \t]*:",
            0.6,
        ),
        # a user name written with its capitals after "filed by": "Filed by HSandhu"
        (
            "filed_by",
            r"\b(?i:filed|signed|entered|printed|verified)\s+by\s+(?P<phi>[A-Z]{1,2}[A-Z][a-z]{2,})\b",
            0.7,
        ),
        # the typist's initials after their label: "TR:  lg"
        (
            "typist",
            r"\b(?:TR|tr|Transcribed\s+by|TRANSCRIBED\s+BY)\s*:[ \t]*(?P<phi>[A-Za-z]{2,4})\b(?!:)",
            0.6,
        ),
        # an EHR user name (an initial and a surname run together) after "by" or a signing dash:
        # "Printed 8/22/98 by rmcdonagh", "Transcribed by HIM jpaquette", "-- ekovacs2 -- Emese Kovacs"
        (
            "user_name",
            r"(?:\b(?:by|user|userid|login)\s*:?\s+(?:HIM\s+)?|(?:^|\s)(?:--?|/)[ \t]*|^(?=[a-z]+\d*[ \t]+--))"
            r"(?P<phi>[a-z]{5,16}\d{0,3})\b(?![\w@-]|\.\w)",
            0.6,
        ),
        # the same alone at a message's very end, after its last sentence or a gap: "... if recurs.
        # mhealy", "Doc ID 44719082  mkraus"
        (
            "closing_user_name",
            r"(?:[.!?)][ \t]+|[ \t]{2,}|^[ \t]*)(?P<phi>[a-z]{5,16}\d{0,3})[ \t]*\Z",
            0.6,
        ),
        # the same anywhere, when an initial or two and a census surname make the whole of it and no
        # dictionary knows the word: "lfairweather / ckim2", "MD/tnguyen", "jpatel 0512" (a lab's
        # call log), "routed to kthomas_mt"
        (
            "bare_user_name",
            r"(?<![\w@.-])(?P<phi>[a-z]{4,16}\d{0,3}(?:_[a-z]{1,4})?)(?![\w@-]|\.\w)",
            0.5,
        ),
        # a user name of an initial and a surname joined by a dot, either way round: "-- a.fujimoto
        # MA", "Triage RN: ocampo.j", "WORKED BY: D.HERNANDEZ-COLE (PFS)"
        (
            "dotted_user_name",
            r"(?<![\w@.])(?P<phi>[a-z]\.[a-z][a-z'-]{2,15}\d{0,3}|[a-z][a-z'-]{2,15}\.[a-z]\d{0,3}"
            r"|[A-Z]\.[A-Z][A-Z'-]{2,15}\d{0,3})(?![\w@]|\.\w)",
            0.6,
        ),
        # a record system's user name in capitals after its label, as report headers print it: "RUN
        # USER: JMARTINEZ2", "RUN USER: MEDREC.LJOHNSON", "User ID: KPATEL"
        (
            "system_user",
            r"\b(?i:run\s+user|user(?:\s*(?:name|id))?|username|login|operator)\s*:\s*"
            r"(?P<phi>[A-Z][A-Z0-9]{1,11}(?:[._][A-Z][A-Z0-9]{1,15})?)\b(?![-/])",
            0.6,
        ),
        # the same in capitals, alone at a line's end or after a dash, as a note's writer signs it in
        # a record of capitals: "... PHARMACY FAX 614-252-8899. AHUBBARD", "-SCHEN4", "Tech: DSTROUD2"
        (
            "caps_user_name",
            r"(?:^|(?<=[.!?])[ \t]+|(?<=-)|(?<=\w:)[ \t]+)(?P<phi>[A-Z]{5,16}\d{0,3})[ \t]*$",
            0.55,
        ),
        # letters and digits after a signer's credential
        ("signer_code", rf"\b(?:{CREDENTIAL_WORDS}),?[ \t]+(?P<phi>[A-Z]{{1,4}}\d{{1,5}})\b(?![/.-]\d)", 0.6),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "caps_user_name":
            return self._initials_and_surname(text[start:end].lower())
        if pattern == "system_user":
            code = text[start:end]
            # (letters and digits, or a system's prefix and a user: shapes no clinical word has)
            return any(c.isdigit() or c in "._" for c in code) or self._initials_and_surname(code.lower())
        if pattern == "signer_code":
            return not TRAINING_GRADE.fullmatch(text[start:end])
        if pattern in ("user_name", "closing_user_name", "line_user_name"):
            return self._user_name(text[start:end])
        if pattern == "bare_user_name":
            # a chat line's speaker, before a colon, may have a surname that is also a word: "jlee:"
            return self._initials_and_surname(text[start:end], speaker=text.startswith(":", end))
        if pattern == "dotted_user_name":
            surname = max(text[start:end].rstrip("0123456789").split("."), key=len).lower()
            lex = self.lexicon
            if lex.is_clinical(surname) or surname in NOT_NAMES or lex.is_clinical_term(surname):
                return False  # "e.coli", "d.dimer"
            census = any(lex.surname_rank_of(part) is not None for part in surname.split("-"))
            # (in capitals a rare word is an acronym: "D.ABNM", a board's diplomate)
            return census or (text[start:end].islower() and lex.zipf(surname.replace("-", "")) < 2.5)
        if pattern == "chat_speaker":
            return self._display_name(text[start:end])
        if pattern == "chat_user":  # a user name, not a word of the chat's own: "[10:02] System:"
            low = text[start:end].lower()
            lex = self.lexicon
            return low not in NOT_NAMES and (lex.zipf(low) < COMMON_ZIPF or lex.is_census_name(low))
        if pattern == "filed_by":
            return text[start:end].lower() not in NOT_NAMES
        if pattern == "typist":
            return text[start:end].lower() not in NOT_NAMES
        parts = re.split(r"[/:]", text[start:end])[1:]
        return not all(p in NOT_NAMES or self.lexicon.is_clinical_term(p) for p in parts)

    def _display_name(self, name: str) -> bool:
        """A person's name as a chat shows it: a census given name or a rare word first, then any
        words that are neither roles nor clinical ("brittany y"), not "System" or "Nurse station"."""
        words = [w.lower().strip(".") for w in name.split()]
        lex = self.lexicon
        if any(w in NOT_NAMES or w in ROLES or w in TITLES or lex.is_clinical(w) for w in words):
            return False
        return lex.is_first_name(words[0]) or lex.zipf(words[0]) < 3.0

    def _user_name(self, token: str) -> bool:
        """One or two initials and a surname run together ("jpaquette", "dvasquezhale": a census
        surname begins what follows the initials), or a word no dictionary knows with digits
        ("ekovacs2"); never an English or clinical word ("orthostasis", "anticoag")."""
        letters = token.rstrip("0123456789")
        lex = self.lexicon
        if letters in NOT_NAMES or lex.is_clinical(letters) or lex.zipf(letters) > 0:
            return False
        if letters != token:
            return True
        return any(
            lex.is_census_name(letters[skip:end])
            for skip in (1, 2)
            for end in range(skip + 4, len(letters) + 1)
        )

    def _initials_and_surname(self, token: str, speaker: bool = False) -> bool:
        """An initial (or two, the second not a vowel) run into a census surname, the whole of the
        word, which no dictionary knows and no English word ends like: "ckim2", "dnguyen",
        "rjthompson3"; not "renally", "clinda" (a drug's shorthand), "inbasket"."""
        letters = token.split("_")[0].rstrip("0123456789")
        lex = self.lexicon
        # (the listed medical words only: a surname may end like one, "kthomas" like "thymomas")
        if letters in NOT_NAMES or lex.zipf(letters) > 0 or letters in lex.medical_words:
            return False
        if ENGLISH_ENDINGS.search(letters):
            return False
        for skip in (1, 2):
            surname = letters[skip:]
            if skip == 2 and letters[1] in "aeiou":
                continue
            rank = lex.surname_rank_of(surname)
            # without digits, the surname is no common word either: "wkdays", "inbasket"
            common = letters == token and not speaker and lex.zipf(surname) >= COMMON_ZIPF
            if len(surname) >= 3 and rank is not None and rank <= USER_SURNAME_RANK and not common:
                return True
        return False
