# cython: language_level=3
# Shared C-level helpers of the compiled modules (core._kernel, ai._search): bit operations,
# card masks, rule flags, the splitmix64 generator and the legal-move rule. Each module that
# cimports this gets its own inline copy; the pure-Python twins mirror these exactly.

ctypedef unsigned long long u64

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int mdh_popcount(unsigned long long x) { return (int)__popcnt64(x); }
    static inline int mdh_ctz(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    static inline int mdh_highest(unsigned long long x) {
        unsigned long i; _BitScanReverse64(&i, x); return (int)i;
    }
    static inline unsigned long long mdh_mul(unsigned long long a, unsigned long long b,
                                             unsigned long long* high) {
        return _umul128(a, b, high);
    }
    #else
    #if (defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__)
    /* Without the POPCNT instruction (not in the baseline x86-64 target) the builtin is a call
       into libgcc; counting in the register is cheaper. */
    static inline int mdh_popcount(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #else
    static inline int mdh_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    #endif
    static inline int mdh_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int mdh_highest(unsigned long long x) { return 63 - __builtin_clzll(x); }
    static inline unsigned long long mdh_mul(unsigned long long a, unsigned long long b,
                                             unsigned long long* high) {
        unsigned __int128 product = (unsigned __int128)a * b;
        *high = (unsigned long long)(product >> 64);
        return (unsigned long long)product;
    }
    #endif
    #define MDH_CLUBS 0x1FFFULL
    #define MDH_SPADES (0x1FFFULL << 26)
    #define MDH_HEARTS (0x1FFFULL << 39)
    #define MDH_TWO_OF_CLUBS 1ULL
    #define MDH_QUEEN_BIT (1ULL << 36)
    #define MDH_JACK_OF_DIAMONDS_BIT (1ULL << 22)
    #define MDH_POINT_CARDS ((0x1FFFULL << 39) | (1ULL << 36))
    """
    int mdh_popcount(u64 x) nogil
    int mdh_ctz(u64 x) nogil
    int mdh_highest(u64 x) nogil
    u64 mdh_mul(u64 a, u64 b, u64* high) nogil
    u64 MDH_CLUBS
    u64 MDH_SPADES
    u64 MDH_HEARTS
    u64 MDH_TWO_OF_CLUBS
    u64 MDH_QUEEN_BIT
    u64 MDH_JACK_OF_DIAMONDS_BIT
    u64 MDH_POINT_CARDS

cdef enum:
    QUEEN_OF_SPADES = 36
    ANY_CLUB_LEAD = 1
    NO_POINTS_FIRST_TRICK = 2
    QUEEN_BREAKS_HEARTS = 4
    MUST_BREAK_HEARTS = 8
    JACK_OF_DIAMONDS_FLAG = 16
    NO_TRICKS_BONUS = 32


cdef inline u64 suit_mask(int suit) noexcept nogil:
    return (<u64>0x1FFF) << (13 * suit)


cdef inline u64 c_legal_mask(u64 hand, int led_suit, bint first_trick, bint hearts_broken,
                             int flags) noexcept nogil:
    cdef u64 follow, safe, others
    if led_suit >= 0:
        # Follow suit when you can.
        follow = hand & suit_mask(led_suit)
        if follow:
            return follow
        # Void on the first trick: no hearts and no Q♠ unless nothing else is held.
        if first_trick and flags & NO_POINTS_FIRST_TRICK:
            safe = hand & ~MDH_POINT_CARDS
            if safe:
                return safe
        return hand
    # The first lead of the hand is the 2♣ (or any club with that option).
    if first_trick:
        if flags & ANY_CLUB_LEAD:
            return hand & MDH_CLUBS
        return hand & MDH_TWO_OF_CLUBS
    # Hearts may not be led until broken, unless the leader holds only hearts.
    if not hearts_broken and flags & MUST_BREAK_HEARTS:
        others = hand & ~MDH_HEARTS
        if others:
            return others
    return hand


cdef inline int c_trick_points(u64 trick, int flags) noexcept nogil:
    cdef int points = mdh_popcount(trick & MDH_HEARTS)
    if trick & MDH_QUEEN_BIT:
        points += 13
    if flags & JACK_OF_DIAMONDS_FLAG and trick & MDH_JACK_OF_DIAMONDS_BIT:
        points -= 10
    return points


cdef inline u64 c_next(u64* state) noexcept nogil:
    cdef u64 z
    state[0] += <u64>0x9E3779B97F4A7C15
    z = state[0]
    z = (z ^ (z >> 30)) * <u64>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <u64>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline int c_nth_card(u64 mask, int index) noexcept nogil:
    cdef int i
    for i in range(index):
        mask &= mask - 1
    return mdh_ctz(mask)
