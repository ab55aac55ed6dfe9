# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The stripping's sub-formulas of equal value, found by one depth-first walk in C: the fast path of /api/check.

    faces, value_terms ──kept dice in order, a die at a time (the automaton's table, read from
        suji.rules.language.automaton)──▶ each kept prefix worked out as `_walk` does, in 64-bit ints
          ──a prefix the automaton accepts──▶ compared with the value (cross-multiplied, as `has_value` does)
          ──▶ the kept indexes of every match of the fewest dice, or None: "ask the general search"

Why C: under a server's load the caches are cold between requests, and what a request costs is the memory and code
it touches. The general search (suji.rules.language.subformulas) keeps its terms and choices in tuples and
dictionaries; this walk keeps one small struct a kept die, on the C stack. It is used only where it answers exactly:
a number or sum that would leave 64 bits, roots of long numbers whose square factors would take more than 2^20
trial divisions in all, more dice or radicands than its arrays hold, or more matches than it keeps make it give up
(None) before it answers, and the caller then asks the general search. It never releases the interpreter lock: on
the dice of a roll (14 at most) a walk takes microseconds, and a released lock goes to whichever thread waits for
it. (Its work grows as 2^dice, as the search's does: on the library's longest formulas, 20 dice and more, either can
take seconds.)

The arithmetic of each move is `_walk`'s (suji.rules.language.evaluate), written a third time in C types, and the
automaton's moves are its table, not a copy: tests/rules/test_subformulas.py holds this walk to
`plain_equal_sub_formulas`, which asks `has_value` of every choice of dice on its own. Built by `pip install`
beside the compiled twins (suji.core.native); without a C compiler, or with SUJI_NATIVE=0, it is not there and the
general search answers alone.
"""

from libc.limits cimport LLONG_MIN
from libc.string cimport memset

from suji.rules.language.automaton import ACCEPTING, CONSTANT, DIGIT, ROOTED, SIGN, SQUARED, START, TRANSITIONS
from suji.rules.language.spelling import CONSTANT_FACES, DIVIDE, MINUS, PLUS, TIMES

cdef enum:
    MAX_DICE = 24  # dice a walk takes (a kept set is a bit mask); a longer formula goes to the general search
    MAX_RADICANDS = 8  # distinct √ parts a sum keeps
    MAX_FOUND = 1024  # matches of the fewest dice it keeps
    SPLITS_KEPT = 128  # numbers under √ whose square factors a walk remembers (by the number's last bits)
    STATES = 7
    CLASSES = 16

# How a die acts when it is kept (the automaton's state says the rest: √ roots, ² squares, a first − is the sign).
cdef enum:
    K_DIGIT, K_PLUS, K_MINUS, K_TIMES, K_DIVIDE, K_CONSTANT, K_OTHER

cdef extern from *:
    """
    static inline int suji_mul(long long a, long long b, long long *out) { return __builtin_mul_overflow(a, b, out); }
    static inline int suji_add(long long a, long long b, long long *out) { return __builtin_add_overflow(a, b, out); }
    /* a·b == c·d, each product worked out in 128 bits where the compiler has them (1: equal, 0: not, -1: unknown) */
    static inline int suji_same_ratio(long long a, long long b, long long c, long long d) {
    #ifdef __SIZEOF_INT128__
        return (__int128)a * b == (__int128)c * d;
    #else
        long long x, y;
        if (__builtin_mul_overflow(a, b, &x) || __builtin_mul_overflow(c, d, &y)) return -1;
        return x == y;
    #endif
    }
    """
    int suji_mul(long long a, long long b, long long *out)  # nonzero: the product left 64 bits
    int suji_add(long long a, long long b, long long *out)
    int suji_same_ratio(long long a, long long b, long long c, long long d)

# The automaton's table over die classes: 0 for every number, then one class per operator face it names.
_OPERATOR_FACES = sorted({name for table in TRANSITIONS.values() for name in table if name != DIGIT})
_CLASS_OF = {face: i + 1 for i, face in enumerate(_OPERATOR_FACES)}
_KIND_OF = {PLUS: K_PLUS, MINUS: K_MINUS, TIMES: K_TIMES, DIVIDE: K_DIVIDE}
cdef int move_table[STATES][CLASSES]
cdef bint accepting[STATES]
cdef int s, c
if len(TRANSITIONS) != STATES or len(_OPERATOR_FACES) + 1 > CLASSES:
    raise ImportError("the automaton has grown beyond the walk's table")  # the general search then answers alone
for s in range(STATES):
    accepting[s] = s in ACCEPTING
    for c in range(CLASSES):
        move_table[s][c] = -1
    for face, nxt in TRANSITIONS[s].items():
        move_table[s][0 if face == DIGIT else _CLASS_OF[face]] = nxt
cdef int S_START = START, S_SIGN = SIGN, S_ROOTED = ROOTED, S_SQUARED = SQUARED, S_CONSTANT = CONSTANT


cdef struct Walk:
    int n
    int die_class[MAX_DICE]
    int kind[MAX_DICE]
    long long number[MAX_DICE]  # a number die's digit, a constant die's factor
    int radicands
    long long want_r[MAX_RADICANDS]  # the value: numerator/denominator·√r, in lowest terms
    long long want_num[MAX_RADICANDS]
    long long want_den[MAX_RADICANDS]
    int best  # the most dice a match may have: n − 1 (a proper sub-formula), then the fewest found
    bint gave_up
    long long split_steps  # trial divisions so far (SPLIT_BUDGET at most)
    long long split_n[SPLITS_KEPT]  # n = split_a²·split_b, remembered (0: none)
    long long split_a[SPLITS_KEPT]
    long long split_b[SPLITS_KEPT]
    int found_count
    unsigned long long found[MAX_FOUND]  # the matches of `best` dice, as bit masks of the kept dice


cdef struct Formula:  # a kept prefix worked out as `_walk` works a formula: its state, its term, the sums before
    int state
    int sign
    long long p, q, r  # the term so far, p/q·√r
    bint started, divides, root, squared
    long long number  # the number being read
    int sums
    long long sum_r[MAX_RADICANDS]  # the terms before, unreduced: sum_num/sum_den·√sum_r
    long long sum_num[MAX_RADICANDS]
    long long sum_den[MAX_RADICANDS]


cdef enum:
    DONE, DIVIDES_BY_ZERO, TOO_BIG

# The square factors of a number under √ are found by trial division up to its root (remembered for the rest of the
# walk, since every kept prefix that closes the factor asks again). The dice of a roll join into numbers of at most
# eight digits (10^4 steps each); past this many steps in one walk (long numbers from the library, under √), the walk
# gives the question to the search, which keeps every number's factors.
cdef long long SPLIT_BUDGET = 1LL << 22


cdef inline int squarefree_split(Walk *w, long long n, long long *a, long long *b) noexcept:
    """n = a²·b with b squarefree (suji.rules.exact.squarefree_split); TOO_BIG once the walk's budget is spent."""
    cdef long long aa = 1, bb = n, k = 2
    cdef long long room = SPLIT_BUDGET - w.split_steps
    cdef int slot = n % SPLITS_KEPT
    if w.split_n[slot] == n:
        a[0] = w.split_a[slot]
        b[0] = w.split_b[slot]
        return DONE
    while k <= bb // k:
        if k > room:
            w.split_steps = SPLIT_BUDGET + 1
            return TOO_BIG
        while bb % (k * k) == 0:
            bb //= k * k
            aa *= k
        k += 1
    w.split_steps += k
    w.split_n[slot], w.split_a[slot], w.split_b[slot] = n, aa, bb
    a[0] = aa
    b[0] = bb
    return DONE


cdef inline long long gcd(long long a, long long b) noexcept:
    if a < 0:
        a = -a
    while b:
        a, b = b, a % b
    return a


cdef inline void lowest_terms(long long *num, long long *den) noexcept:
    """num/den in lowest terms (den > 0 stays so): `_walk` keeps its sums unreduced, in Python's unbounded ints;
    here they are reduced as they go, so that they stay within 64 bits where the values themselves do."""
    cdef long long g = gcd(num[0], den[0])
    if g > 1:
        num[0] //= g
        den[0] //= g


cdef int close_factor(Walk *w, Formula *f) noexcept:
    """The factor `[√] number [²]` read so far joins the term (a constant die, × ÷ + − or the end follows it)."""
    cdef long long p2 = 0, r2 = 1, a = 1, t = 0
    if f.root and not f.squared and f.number:
        if squarefree_split(w, f.number, &p2, &r2):
            return TOO_BIG
    elif f.squared and not f.root:
        if suji_mul(f.number, f.number, &p2):
            return TOO_BIG
    else:
        p2 = f.number  # a number, or √n² = n
    if not f.started:
        f.p, f.q, f.r, f.started = p2, 1, r2, True
    else:
        if not f.divides:
            if suji_mul(f.p, p2, &f.p):
                return TOO_BIG
            if f.q != 1:
                lowest_terms(&f.p, &f.q)
        else:
            if p2 == 0:
                return DIVIDES_BY_ZERO
            if suji_mul(p2, r2, &t) or suji_mul(f.q, t, &f.q):  # ÷ p2·√r2 is × √r2/(p2·r2)
                return TOO_BIG
            lowest_terms(&f.p, &f.q)
        if r2 != 1:
            if suji_mul(f.r, r2, &t) or squarefree_split(w, t, &a, &f.r):
                return TOO_BIG
            if suji_mul(f.p, a, &f.p):
                return TOO_BIG
    f.root = f.squared = False
    f.number = 0
    return DONE


cdef int close_term(Formula *f) noexcept:
    """The term p/q·√r, with its sign, joins the sums (a + or − or the end follows it)."""
    cdef int i
    cdef long long x, y
    for i in range(f.sums):
        if f.sum_r[i] == f.r:
            if suji_mul(f.sum_num[i], f.q, &x) or suji_mul(f.p, f.sum_den[i], &y):
                return TOO_BIG
            if suji_add(x, y if f.sign > 0 else -y, &f.sum_num[i]) or suji_mul(f.sum_den[i], f.q, &f.sum_den[i]):
                return TOO_BIG
            if f.sum_num[i] == LLONG_MIN:  # −2^63 has no 64-bit opposite, which the reduction takes
                return TOO_BIG
            lowest_terms(&f.sum_num[i], &f.sum_den[i])
            return DONE
    if f.sums == MAX_RADICANDS:
        return TOO_BIG
    f.sum_r[f.sums] = f.r
    f.sum_num[f.sums] = f.p if f.sign > 0 else -f.p
    f.sum_den[f.sums] = f.q
    f.sums += 1
    return DONE


cdef int has_the_value(Walk *w, Formula *prefix) noexcept:
    """1 when the prefix, ended here, has the value (as `has_value`), 0 when not, -1 when it cannot tell."""
    cdef Formula f = prefix[0]
    cdef int i, k, same, nonzero = 0
    cdef bint listed
    if f.state != S_CONSTANT:
        i = close_factor(w, &f)
        if i == DIVIDES_BY_ZERO:
            return 0
        if i == TOO_BIG:
            return -1
    if close_term(&f) == TOO_BIG:
        return -1
    for i in range(f.sums):
        if f.sum_num[i] == 0:
            continue
        nonzero += 1
        listed = False
        for k in range(w.radicands):
            if w.want_r[k] == f.sum_r[i]:
                same = suji_same_ratio(f.sum_num[i], w.want_den[k], w.want_num[k], f.sum_den[i])
                if same <= 0:
                    return same  # not the value, or (without 128-bit ints) cannot tell
                listed = True
                break
        if not listed:
            return 0
    return nonzero == w.radicands


cdef void walk(Walk *w, Formula *prefix, int start, int size, unsigned long long kept) noexcept:
    """Every formula that keeps the prefix's dice and then some of the dice from `start` on."""
    cdef int j, nxt, kind, met
    cdef Formula f
    if size and accepting[prefix.state]:
        met = has_the_value(w, prefix)
        if met < 0:
            w.gave_up = True
            return
        if met:
            if size < w.best:
                w.best, w.found_count = size, 0
            if w.found_count == MAX_FOUND:
                w.gave_up = True
                return
            w.found[w.found_count] = kept
            w.found_count += 1
    if size + 1 > w.best:
        return
    for j in range(start, w.n):
        nxt = move_table[prefix.state][w.die_class[j]]
        if nxt < 0:
            continue
        f = prefix[0]
        kind = w.kind[j]
        if kind == K_DIGIT:
            if suji_mul(f.number, 10, &f.number) or suji_add(f.number, w.number[j], &f.number):
                w.gave_up = True
                return
        elif nxt == S_ROOTED:
            f.root = True
        elif nxt == S_SQUARED:
            f.squared = True
        elif nxt == S_SIGN:
            f.sign = -1
        else:  # a constant die, × ÷ or + −: the factor before it is complete (unless a constant closed it)
            if prefix.state != S_CONSTANT:
                met = close_factor(w, &f)
                if met == DIVIDES_BY_ZERO:
                    continue  # not a formula, and no formula goes on from these dice
                if met == TOO_BIG:
                    w.gave_up = True
                    return
            if nxt == S_CONSTANT:
                if suji_mul(f.p, w.number[j], &f.p):
                    w.gave_up = True
                    return
            elif kind == K_TIMES or kind == K_DIVIDE:
                f.divides = kind == K_DIVIDE
            else:  # + or −: the term is complete
                if close_term(&f) == TOO_BIG:
                    w.gave_up = True
                    return
                f.sign = 1 if kind == K_PLUS else -1
                f.started = f.divides = False
        f.state = nxt
        walk(w, &f, j + 1, size + 1, kept | (1ULL << j))
        if w.gave_up:
            return


def walk_equal_sub_formulas(faces, dict terms):
    """`equal_sub_formulas(faces, terms)` by the walk: the kept indexes of every proper sub-formula of the fewest
    dice with these `value_terms`, in `itertools.combinations` order; [] when none has the value; None when the walk
    cannot answer exactly (the general search then does)."""
    cdef Walk w
    cdef Formula start
    cdef int i, n = len(faces)
    if n > MAX_DICE or len(terms) > MAX_RADICANDS:
        return None
    w.n = n
    for i in range(n):
        face = faces[i]
        if type(face) is int:
            if not 0 <= face <= 9:
                return None
            w.die_class[i], w.kind[i], w.number[i] = 0, K_DIGIT, face
        elif face in _CLASS_OF:
            w.die_class[i] = _CLASS_OF[face]
            w.number[i] = CONSTANT_FACES.get(face, 0)
            w.kind[i] = K_CONSTANT if face in CONSTANT_FACES else _KIND_OF.get(face, K_OTHER)
        else:
            return None  # not a face of the language
    w.radicands = 0
    try:
        for r, (num, den) in terms.items():
            w.want_r[w.radicands], w.want_num[w.radicands], w.want_den[w.radicands] = r, num, den
            w.radicands += 1
    except (OverflowError, TypeError):  # a value beyond 64 bits (or not made of ints)
        return None
    w.best, w.gave_up, w.found_count, w.split_steps = n - 1, False, 0, 0
    memset(w.split_n, 0, sizeof(w.split_n))
    start.state, start.sign, start.p, start.q, start.r = S_START, 1, 0, 0, 0
    start.started = start.divides = start.root = start.squared = False
    start.number, start.sums = 0, 0
    walk(&w, &start, 0, 0, 0)
    if w.gave_up:
        return None
    return sorted(tuple([i for i in range(n) if w.found[k] >> i & 1]) for k in range(w.found_count))
