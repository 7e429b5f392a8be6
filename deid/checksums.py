"""Check digits of national and health identifiers, so that a number shaped like one is taken as one
only when its check digit agrees (about one random number in ten passes, against one in one).

Each function takes the identifier's characters without separators and returns whether its check
digit is right. The algorithms are those the issuing bodies publish.
"""

from __future__ import annotations

# Verhoeff's dihedral-group tables (Aadhaar, UIDAI).
_VERHOEFF_D = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VERHOEFF_P = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)


def luhn(digits: str) -> bool:
    """Luhn mod 10 (Ontario health card, Canadian SIN, payment cards)."""
    if not digits.isdigit():
        return False
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def verhoeff(digits: str) -> bool:
    """Verhoeff's check (Aadhaar's twelfth digit)."""
    if not digits.isdigit():
        return False
    check = 0
    for i, c in enumerate(reversed(digits)):
        check = _VERHOEFF_D[check][_VERHOEFF_P[i % 8][int(c)]]
    return check == 0


def nhs_number(digits: str) -> bool:
    """NHS number (England, Wales, Isle of Man) and Scottish CHI: weights 10..2, mod 11."""
    if len(digits) != 10 or not digits.isdigit():
        return False
    remainder = sum(int(c) * w for c, w in zip(digits[:9], range(10, 1, -1), strict=True)) % 11
    check = 11 - remainder
    if check == 11:
        check = 0
    return check != 10 and check == int(digits[9])


def ppsn(code: str) -> bool:
    """Irish Personal Public Service Number: 7 digits, a check letter (mod 23), an optional letter."""
    code = code.upper()
    if len(code) not in (8, 9) or not code[:7].isdigit() or not code[7].isalpha():
        return False
    total = sum(int(c) * w for c, w in zip(code[:7], range(8, 1, -1), strict=True))
    if len(code) == 9:
        total += 9 * (ord(code[8]) - ord("A") + 1 if code[8] != "W" else 0)
    letter = "W" if total % 23 == 0 else chr(ord("A") + total % 23 - 1)
    return code[7] == letter


def au_medicare(digits: str) -> bool:
    """Australian Medicare card: first digit 2-6, weights 1 3 7 9 1 3 7 9, mod 10 is the ninth."""
    if len(digits) < 10 or not digits.isdigit() or digits[0] not in "23456":
        return False
    total = sum(int(c) * w for c, w in zip(digits[:8], (1, 3, 7, 9, 1, 3, 7, 9), strict=True))
    return total % 10 == int(digits[8])


def bc_phn(digits: str) -> bool:
    """British Columbia Personal Health Number: 9 then eight digits weighted 2 4 8 5 10 9 7 3, mod 11."""
    if len(digits) != 10 or not digits.isdigit() or digits[0] != "9":
        return False
    total = sum((int(c) * w) % 11 for c, w in zip(digits[1:9], (2, 4, 8, 5, 10, 9, 7, 3), strict=True))
    return (11 - total % 11) % 11 == int(digits[9])
