"""Words that carry no identity in a person's name, and the small closed word classes the matcher reasons about.

These are closed classes (titles, honorifics, generational suffixes, particles), not lists of people's names:
a title says what a person is, never who, so it is dropped before comparing. Keys are lower-case ASCII,
compared after transliteration.
"""

# Titles and honorifics: forms of address, ranks, offices and royal or traditional titles. Dropped only where
# titles stand, at the start of the name (or of a comma-separated segment), and only when other parts remain:
# "Hon. Dr Themba Masuku" is Themba Masuku, while "Martin Luther King" keeps King. Words that are as often
# given names or family names (Amir, Shah, Justice, Tan, Sultan, Raja, Sen, He) are deliberately left out.
TITLES: frozenset[str] = frozenset(
    """
    mr mrs ms miss mx mister madam madame mme mlle sir dame lord lady dr doctor prof professor
    rev reverend revd pastor bishop archbishop apostle prophet father fr sister sr brother br imam sheikh shaikh
    sheik mufti rabbi hon honourable honorable rt right excellency his her hh hrh hm majesty highness
    royal mp mpl senator president vice deputy minister premier governor gov ambassador amb
    judge magistrate adv advocate attorney esq esquire eng engr ing ir col colonel gen general
    lt lieutenant maj major capt captain cmdr commander brig brigadier admiral adm sgt sergeant cpl
    marshal commissioner comm chief chairman chairperson mayor councillor cllr
    king queen prince princess emir sheikha haji hajji hajj alhaji mallam
    inkhosi inkhosikati indlovukazi ingwenyama umntfwana indvuna umphakatsi bantfwabenkhosi
    morena mohlomphehi kgosi kgosigadi inkosi inkosikazi ndabezitha ntate hosi
    tsar czar maharaja begum datuk dato tun tunku pehin
    """.split()
)

# Abbreviations written with dots between letters that are titles ("H.E." His/Her Excellency, "H.R.H.").
DOTTED_TITLES: frozenset[str] = frozenset({"he", "hrh", "hh", "hm", "hsh"})

# Generational suffixes and post-nominal letters, dropped at the end of a name (or of a segment): they tell
# a father from a son only where the rest agrees, and are written inconsistently, so they are ignored and reported.
SUFFIXES: frozenset[str] = frozenset(
    """
    jr jnr junior sr snr senior phd md mba msc bsc ba llb lld obe mbe cbe kbe gcmg kcmg frs qc kc sc mp mpl
    """.split()
)

# Roman numerals used as regnal or generational numbers ("Mswati III", "Henry VIII"). One-letter numerals
# ("I", "V", "X") are left alone: a one-letter part is far more often an initial.
REGNAL_NUMBERS: frozenset[str] = frozenset(
    """
    ii iii iv vi vii viii ix xi xii xiii xiv xv xvi xvii xviii xix xx xxi
    """.split()
)

# Particles: short linking words of family names (van der Merwe, bin Salman, de la Cruz, ka Dinuzulu).
# They are kept (they are part of the name) but weigh little, and an unmatched particle costs almost nothing.
PARTICLES: frozenset[str] = frozenset(
    """
    al el ad ar as at az an ash ibn bin ben bint binti bte abu umm ould
    van von der den de del della di da das dos du la le les lo mac mc st ter ten
    ka ya wa kwa
    """.split()
)

# Family-name endings that mark gender (masculine, feminine), where a family's men and women write one name two
# ways: Polish and Ukrainian -ski / -ska (Kowalski / Kowalska), Russian -skiy / -skaya, -ov / -ova, -in / -ina,
# -oy / -aya (Tolstoy / Tolstaya), Greek -os / -ou, -is / -i, -as / -a (Papadopoulos / Papadopoulou). Such a
# difference is a family's two forms of its name (a husband and wife, a brother and sister): never a sign that
# a name was written carelessly, even when it is a single letter (see "noisy names" in compare.py).
GENDERED_ENDINGS: tuple[tuple[str, str], ...] = (
    ("ski", "ska"), ("cki", "cka"), ("zki", "zka"), ("skiy", "skaya"), ("skii", "skaya"), ("sky", "skaya"),
    ("skyi", "ska"), ("ov", "ova"), ("ev", "eva"), ("yov", "yova"), ("in", "ina"), ("yn", "yna"), ("iy", "aya"),
    ("oy", "aya"), ("yy", "aya"), ("os", "ou"), ("is", "i"), ("as", "a"),
)  # fmt: skip

# Particles that are often written joined to the next part ("Al-Assad", "Alassad", "LaMbikiza"):
# a part made of one of these plus another part's form compares as that part.
ATTACHABLE_PREFIXES: tuple[str, ...] = ("al", "el", "la", "ka", "van", "von", "de", "du", "bin", "ben", "ibn", "abu")
# The Arabic article as its transliteration writes it joined to the name ("البشير" -> "lbshyr").
ABJAD_PREFIXES: tuple[str, ...] = ("al", "l")

# Scripts whose transliteration leaves vowels out: abjads write no short vowels ("mhmd"), and the
# transliteration of Brahmic scripts drops the inherent vowel ("नरेंद्र" -> "nremdr"). Their parts can only
# be compared on consonants.
ABJAD_SCRIPTS: frozenset[str] = frozenset(
    {"ARABIC", "HEBREW", "SYRIAC", "THAANA", "NKO", "DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA"}
)

# Scripts written without spaces between the family and given name, one syllable per character: the first
# syllable is the family name and the rest make one given name ("习近平" -> "xi jinping").
SYLLABIC_NAME_SCRIPTS: frozenset[str] = frozenset({"CJK", "HANGUL"})

# Final vowels that build one given name from another (a closed class of endings, not a list of names): the
# Romance and Slavic masculine / feminine pairs (Paulo / Paula, Daniele / Daniela, Julio / Julie), the Greek
# and Nguni endings beside -i (Elena / Eleni, Themba / Thembi, Thando / Thandi). A change between other final
# vowels (e / i, any with u) builds no name: it is a slip (Tsabedze / Tsabedzi).
NAME_ENDING_VOWEL_PAIRS: frozenset[frozenset[str]] = frozenset(
    frozenset(pair) for pair in ("ao", "ae", "ai", "oi", "eo")
)
# A final vowel added to a name to make its feminine form (Daniel / Daniela, Oleksandr / Oleksandra, Louis /
# Louise). Another vowel added or dropped at the end (Lungisani / Lungisan, Mfundo / Mfund) is a slip.
FEMININE_ADDED_VOWELS: frozenset[str] = frozenset("ae")
