/*
 * reference.c: pocha's bench workloads written plainly in C, a speed reference for `pocha bench --against`.
 *
 * The same deals as pocha, card for card: 4 players, the default rules (ludoteka: 40 cards, the pocha
 * play rule, the hook except with one card, 10 + 5 a trick for an exact bid, -5 a trick missed) and
 * pocha's random streams (every number a deal draws comes from (seed, hand size, deal, stream)).
 *
 *   W  random bids + random play (pocha bench's "random bids + random play")
 *   H  aces-trumps bids + greedy play (pocha bench's "aces-trumps bids + greedy play")
 *
 * Run:    reference W|H K DEALS SEED
 * Prints: deals_per_s=RATE, then the sums over the deals, by bidding position (mano first, the dealer
 *         last), of points, bids, tricks won and exact bids: pocha's figures for the same run, which
 *         tests/test_reference.py compares.
 * Build:  cc -O3 -march=native -o reference reference.c   (pocha bench --against reference.c builds it)
 *
 * A hand is a 64-bit mask with one 16-bit lane per suit (card id = suit * 16 + strength); one mask,
 * beat (every card that would take the trick as it stands), gives the legal cards and the winner.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PLAYERS = 4, DECK = 40, MAX_CARDS = DECK / PLAYERS };
enum { STREAM_DEAL = 1, STREAM_PLAY = 2, STREAM_BID = 3 }; /* pocha.kernels.codes */
static const int EXACT = 10, PER_TRICK = 5, MISS = -5;
static const uint64_t LANE = 0xFFFF, LANES = 0x0001000100010001ull;
static const uint64_t ACES = 0x0001000100010001ull << 9; /* the ace is the strongest of the ten ranks */

#define INLINE static inline __attribute__((always_inline))

/* ---------- pocha.kernels.streams ---------- */
static const uint64_t GAMMA = 0x9E3779B97F4A7C15ull;

INLINE uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
INLINE uint64_t stream_state(uint64_t seed, int cards, int64_t deal, int stream) {
    uint64_t z = mix64(seed + GAMMA * (uint64_t)cards);
    z = mix64(z + GAMMA * (uint64_t)deal);
    return mix64(z + GAMMA * (uint64_t)stream);
}
/* wyrand: a step by a constant, a draw the two halves of one 128-bit product XORed */
INLINE uint64_t next_state(uint64_t state) { return state + 0xA0761D6478BD642Full; }
INLINE uint64_t draw(uint64_t state) {
    const __uint128_t product = (__uint128_t)state * (state ^ 0xE7037ED1A0B428DBull);
    return (uint64_t)(product >> 64) ^ (uint64_t)product;
}
INLINE uint64_t below(uint64_t state, uint64_t n) { return ((draw(state) >> 32) * n) >> 32; }
INLINE double uniform(uint64_t state) { return (double)(draw(state) >> 11) * (1.0 / 9007199254740992.0); }

/* ---------- bits ---------- */
INLINE int lowest(uint64_t mask) { return __builtin_ctzll(mask); }
INLINE int highest(uint64_t mask) { return 63 - __builtin_clzll(mask); }
INLINE uint64_t strengths(uint64_t mask) { return (mask | mask >> 16 | mask >> 32 | mask >> 48) & LANE; }
INLINE int nth_card(uint64_t mask, uint64_t n) {
#ifdef __BMI2__
    return lowest(__builtin_ia32_pdep_di(1ull << n, mask));
#else
    while (n--) mask &= mask - 1;
    return lowest(mask);
#endif
}

/* ---------- dealing (pocha.kernels.deal) ---------- */
/* a partial Fisher-Yates of the deck in pocha's order (two steps a draw), then cards one at a time
 * from the mano round; int32 cards: a char array may alias every other array, which slows the loop */
INLINE int deal(uint64_t seed, int cards, int64_t number, uint64_t hands[PLAYERS]) {
    static const int32_t DECK_ORDER[DECK] = {9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  25, 24, 23, 22,
                                             21, 20, 19, 18, 17, 16, 41, 40, 39, 38, 37, 36, 35, 34,
                                             33, 32, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48};
    int32_t order[DECK];
    memcpy(order, DECK_ORDER, sizeof order);
    const int dealt = cards * PLAYERS, draws = dealt < DECK ? dealt + 1 : dealt;
    uint64_t state = stream_state(seed, cards, number, STREAM_DEAL);
    for (int j = 0; j < draws; j += 2) {
        state = next_state(state);
        const uint64_t bits = draw(state);
        int r = j + (int)(((bits >> 32) * (uint64_t)(DECK - j)) >> 32), card = order[j];
        order[j] = order[r];
        order[r] = card;
        if (j + 1 < draws) {
            r = j + 1 + (int)(((bits & 0xFFFFFFFFull) * (uint64_t)(DECK - j - 1)) >> 32);
            card = order[j + 1];
            order[j + 1] = order[r];
            order[r] = card;
        }
    }
    const int mano = (int)((number + 1) % PLAYERS);
    for (int q = 0; q < PLAYERS; q++) {
        uint64_t hand = 0;
        for (int j = q; j < dealt; j += PLAYERS) hand |= 1ull << order[j];
        hands[(mano + q) % PLAYERS] = hand;
    }
    return dealt < DECK ? order[dealt] : order[dealt - 1];
}

/* ---------- bids (pocha.strategies.heuristics: random, aces-trumps) ---------- */
/* the bid the hook rule forbids the dealer after the others bid `sum`, -1 for none */
INLINE int forbidden(int cards, int position, int sum) {
    return position == PLAYERS - 1 && cards > 1 && cards - sum >= 0 ? cards - sum : -1;
}
INLINE int random_bid(uint64_t seed, int cards, int64_t number, int position, int banned) {
    const int restricted = banned >= 0;
    const uint64_t state = next_state(stream_state(seed, cards, number, STREAM_BID + 64 * (position + 1)));
    const int bid = (int)floor(uniform(state) * (double)(cards + 1 - restricted));
    return bid + (restricted && bid >= banned);
}
INLINE int aces_trumps_bid(uint64_t hand, uint64_t trumps, int cards, int banned) {
    const int count = __builtin_popcountll(hand & trumps) + __builtin_popcountll(hand & ACES & ~trumps);
    const int bid = count < cards ? count : cards;
    if (bid != banned) return bid;
    return bid + 1 <= cards ? bid + 1 : bid - 1; /* a forbidden bid steps toward the estimate, up */
}

/* ---------- play (pocha.kernels.trick, choice) ---------- */
/* all ones when x is not zero: the selects below as masks, which gcc cannot turn into mispredicted branches */
INLINE uint64_t ones_if(uint64_t x) { return 0 - (uint64_t)(x != 0); }
/* (before the lead every card beats the trick and no card follows: the whole hand) */
INLINE uint64_t legal_cards(uint64_t hand, uint64_t led, uint64_t beat) {
    const uint64_t following = hand & led, holds = ones_if(following);
    const uint64_t cards = (following & holds) | (hand & ~holds), beating = cards & beat, beats = ones_if(beating);
    return (beating & beats) | (cards & ~beats);
}
/* the cards that beat `bit`, the card now winning: higher trumps; for a led-suit card also every trump */
INLINE uint64_t beat_mask(uint64_t bit, uint64_t led, uint64_t trumps) {
    const uint64_t higher = 0 - (bit << 1), trump = 0 - (uint64_t)((bit & trumps) != 0);
    return (((trumps & trump) | (led & ~trump)) & higher) | (trumps & ~trump);
}
/* the weakest card: the lowest non-trump strength (lowest suit on ties), else the lowest trump */
INLINE int cheapest(uint64_t mask, uint64_t trumps) {
    const uint64_t plain = mask & ~trumps;
    if (!plain) return lowest(mask);
    return lowest(plain & (LANES << lowest(strengths(plain))));
}
/* the strongest card: the highest trump, else the highest strength (lowest suit on ties) */
INLINE int dearest(uint64_t mask, uint64_t trumps) {
    if (mask & trumps) return highest(mask & trumps);
    return lowest(mask & (LANES << highest(strengths(mask))));
}
INLINE int greedy_card(uint64_t legal, uint64_t led, uint64_t trumps, uint64_t beat, int short_of_bid) {
    if (!(legal & (legal - 1))) return lowest(legal);
    if (!led) return short_of_bid ? dearest(legal, trumps) : cheapest(legal, trumps);
    if (short_of_bid) {
        const uint64_t takers = legal & beat;
        return cheapest(takers ? takers : legal, trumps);
    }
    const uint64_t duckers = legal & ~beat;
    return duckers ? dearest(duckers, trumps) : cheapest(legal, trumps);
}

/* ---------- a run ---------- */
typedef struct {
    int64_t points[PLAYERS], bids[PLAYERS], won[PLAYERS], exact[PLAYERS]; /* by bidding position */
} sums_t;

INLINE void play_deal(const int greedy, uint64_t seed, int cards, int64_t number, sums_t *sums) {
    uint64_t hands[PLAYERS];
    const int trump_card = deal(seed, cards, number, hands);
    const uint64_t trumps = LANE << (16 * (trump_card >> 4));
    const int mano = (int)((number + 1) % PLAYERS);
    int bids[PLAYERS], won[PLAYERS] = {0}, sum = 0;
    for (int q = 0; q < PLAYERS; q++) {
        const int seat = (mano + q) % PLAYERS, banned = forbidden(cards, q, sum);
        bids[seat] = greedy ? aces_trumps_bid(hands[seat], trumps, cards, banned)
                            : random_bid(seed, cards, number, q, banned);
        sum += bids[seat];
    }
    uint64_t state = stream_state(seed, cards, number, STREAM_PLAY);
    int leader = mano;
    for (int t = 0; t < cards; t++) {
        uint64_t led = 0, beat = ~0ull;
        int winner = leader;
        for (int j = 0, seat = leader; j < PLAYERS; j++, seat = seat + 1 < PLAYERS ? seat + 1 : 0) {
            const uint64_t hand = hands[seat], legal = legal_cards(hand, led, beat);
            int card;
            if (greedy) {
                card = greedy_card(legal, led, trumps, beat, won[seat] < bids[seat]);
            } else if (hand & (hand - 1)) { /* a draw for every card but the last, forced or not */
                state = next_state(state);
                card = nth_card(legal, below(state, (uint64_t)__builtin_popcountll(legal)));
            } else {
                card = lowest(hand);
            }
            const uint64_t bit = 1ull << card;
            hands[seat] = hand ^ bit;
            if (!j) led = LANE << (card & 48);
            const uint64_t wins = ones_if(bit & beat);
            beat = (beat_mask(bit, led, trumps) & wins) | (beat & ~wins);
            winner = (int)(((uint64_t)seat & wins) | ((uint64_t)winner & ~wins));
        }
        won[winner]++;
        leader = winner;
    }
    for (int q = 0; q < PLAYERS; q++) {
        const int seat = (mano + q) % PLAYERS, miss = abs(won[seat] - bids[seat]);
        sums->points[q] += miss ? MISS * miss : EXACT + PER_TRICK * won[seat];
        sums->bids[q] += bids[seat];
        sums->won[q] += won[seat];
        sums->exact[q] += !miss;
    }
}

/* the mode a compile-time constant in each loop */
static __attribute__((noinline)) void run_random(uint64_t seed, int cards, int64_t deals, sums_t *sums) {
    for (int64_t number = 0; number < deals; number++) play_deal(0, seed, cards, number, sums);
}
static __attribute__((noinline)) void run_greedy(uint64_t seed, int cards, int64_t deals, sums_t *sums) {
    for (int64_t number = 0; number < deals; number++) play_deal(1, seed, cards, number, sums);
}

static void print_sums(const char *name, const int64_t *values) {
    printf(" %s=", name);
    for (int q = 0; q < PLAYERS; q++) printf("%s%" PRId64, q ? "," : "", values[q]);
}

int main(int argc, char **argv) {
    if (argc != 5 || (strcmp(argv[1], "W") && strcmp(argv[1], "H"))) {
        fprintf(stderr, "usage: %s W|H K DEALS SEED  (W: random bids and play, H: aces-trumps bids, greedy play)\n",
                argv[0]);
        return 2;
    }
    const int cards = atoi(argv[2]);
    const int64_t deals = atoll(argv[3]);
    const uint64_t seed = strtoull(argv[4], NULL, 10);
    if (cards < 1 || cards > MAX_CARDS || deals < 1) {
        fprintf(stderr, "K must be 1..%d and DEALS at least 1\n", MAX_CARDS);
        return 2;
    }
    sums_t sums;
    memset(&sums, 0, sizeof sums);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    (argv[1][0] == 'H' ? run_greedy : run_random)(seed, cards, deals, &sums);
    clock_gettime(CLOCK_MONOTONIC, &end);
    const double seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    printf("mode=%s cards=%d deals=%" PRId64 " seed=%" PRIu64 " deals_per_s=%.0f\n", argv[1], cards, deals, seed,
           (double)deals / seconds);
    printf("by position:");
    print_sums("points", sums.points);
    print_sums("bids", sums.bids);
    print_sums("won", sums.won);
    print_sums("exact", sums.exact);
    printf("\n");
    return 0;
}
