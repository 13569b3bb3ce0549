/* The morris family's move generator, evaluation and alpha-beta search, in C.
 *
 * The same algorithm as morris.py, evaluate.py (MorrisEvaluator) and search.py (Searcher),
 * step for step: the same generation order, move ordering, principal variation search,
 * late-move reductions, table, killers and history, the same endgame database lookups, so a
 * search to a fixed depth gives the same action, score, depth and node count as the pure
 * Python engine (tests/engine/test_core.py). Python keeps the iterative deepening, the
 * time planning and the answer; this file runs one iteration's root and everything below.
 *
 * It holds for every rule set of the morris family, the per-mill capture counts of
 * Navakankari and Morabaraba's remembered moves included; Nau Keti Keta is searched in
 * Python.
 * Built by `navakankari build-engine` into the compiled build's folder; loaded with ctypes.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core_tables.h" /* the limits, scores, kinds, rule flags and weights (core_tables.py) */

#define NO_MOVE (-1)
#define MAXPLY 512
#define KILLER_PLIES 128
#define NCODES 3072

/* The look at the clock and the stop flag: Python sets *halt to stop. It returns nothing, so
 * that a callback that fails before its first line (a Ctrl-C is raised there) leaves no
 * undefined answer behind: Python sets *halt then too (core.py). */
typedef void (*poll_fn)(void);
typedef void (*load_fn)(void);

typedef struct {
    int n;
    uint32_t full;
    uint32_t adj[MAXN];
    int nmills;
    uint32_t mills[MAXMILLS];
    int nat[MAXN];                     /* mills through each point, in mill order */
    uint32_t at[MAXN][MAXMILLS_AT];    /* their masks */
    int mat[MAXN][MAXMILLS_AT];        /* their numbers */
    uint32_t rests[MAXN][MAXMILLS_AT]; /* their masks without the point */
    int r[R_COUNT];
    int w[W_COUNT];
    uint64_t zp[2][MAXN], zs[2], zh[2][64], zr[8];
    uint64_t zc[MAXMILLS][2][MAXLIMIT + 1]; /* a mill's capture count, per side */
    uint64_t zm[2][MAXN][MAXN];             /* a side's remembered move */
    /* 0: no database; 1: three against three; 2: and three against four */
    const uint8_t *t33, *t34, *t43;
    int loaded;
    load_fn load;
} Config;

typedef struct {
    uint32_t bb[2];
    int hand[2];
    int side, pending, quiet;
    uint64_t bkey, key;
    int last[2];                    /* the move a side may not undo to capture: a * 32 + b */
} State;

typedef struct {
    State saved;
    int action;
    int8_t bumped[MAXMILLS_AT]; /* the capture counts the action raised (-1: none): undone
                                   by pop */
} Frame;

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t move;
    int8_t depth;
    uint8_t bound; /* the flag plus one: 0 is an empty slot, so a fresh table is zeroed
                      memory, which the system maps only as it is written */
} Entry;

typedef struct {
    const Config *c;
    State s;
    Frame stack[MAXPLY];
    int sp;
    /* per mill and side: formations, up to the limit; apart from State, so that the copy
     * each action saves stays small (the counts change only when a mill forms) */
    uint8_t counts[2 * MAXMILLS];
    /* repetition counts of the game before the search: key -> count (read only) */
    uint64_t *rep_keys;
    int *rep_counts;
    uint32_t rep_mask;
    /* transposition table: open addressing, a few probes, then the shallowest is replaced */
    Entry *tt;
    uint32_t tt_mask;
    long tt_count;
    /* the slots filled since the last clear, while they are few (tt_count <= used_cap): a
     * clear then empties only those, so a search of a few thousand nodes (a teaching
     * judgement clears the table for every position) does not pay for the whole table */
    uint32_t *used;
    long used_cap;
    int64_t hist[NCODES];
    int killers[KILLER_PLIES][2];
    long long nodes;
    uint32_t check_mask;
    int lmr_after, lmr_min_depth;
    int tactical;
    poll_fn poll;
    volatile int *halt;
    jmp_buf stop;
    int partial_best, partial_score, has_partial;
} Ctx;

static inline int pc(uint32_t x) { return __builtin_popcount(x); }
static inline int hibit(uint32_t x) { return 31 - __builtin_clz(x); }
static inline int code_kind(int code) { return code >> 10; }
static inline int code_origin(int code) { return (code >> 5) & 31; }
static inline int code_target(int code) { return code & 31; }
static inline int mk(int kind, int origin, int target) { return kind << 10 | origin << 5 | target; }

/* -- configuration ------------------------------------------------------------------------ */

void *nk_config_new(int n, const uint32_t *adj, int nmills, const uint32_t *mills,
                    const int *rules, const int *weights, const uint64_t *zp,
                    const uint64_t *zs, const uint64_t *zh, int maxhand, const uint64_t *zr,
                    const uint64_t *zc, const uint64_t *zm, load_fn load) {
    if (n > MAXN || nmills > MAXMILLS || maxhand >= 64) return NULL;
    if (rules[R_LIMIT] > MAXLIMIT) return NULL;
    Config *c = calloc(1, sizeof(Config));
    if (!c) return NULL;
    c->n = n;
    c->full = n == 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
    for (int p = 0; p < n; p++) c->adj[p] = adj[p];
    c->nmills = nmills;
    for (int k = 0; k < nmills; k++) {
        c->mills[k] = mills[k];
        for (int p = 0; p < n; p++) {
            if (mills[k] >> p & 1) {
                if (c->nat[p] >= MAXMILLS_AT) { free(c); return NULL; }
                c->at[p][c->nat[p]] = mills[k];
                c->mat[p][c->nat[p]] = k;
                c->rests[p][c->nat[p]] = mills[k] & ~(1u << p);
                c->nat[p]++;
            }
        }
    }
    memcpy(c->r, rules, sizeof(c->r));
    memcpy(c->w, weights, sizeof(c->w));
    for (int s = 0; s < 2; s++) {
        for (int p = 0; p < n; p++) c->zp[s][p] = zp[s * n + p];
        c->zs[s] = zs[s];
        for (int h = 0; h <= maxhand; h++) c->zh[s][h] = zh[s * (maxhand + 1) + h];
    }
    for (int i = 0; i < 8; i++) c->zr[i] = zr[i];
    /* zc: mills x 2 x (limit + 1), when there is a limit; zm: 2 x n x n, when moves are kept */
    int per = rules[R_LIMIT] + 1;
    if (rules[R_LIMIT] >= 0)
        for (int k = 0; k < nmills; k++)
            for (int s = 0; s < 2; s++)
                for (int v = 0; v < per; v++) c->zc[k][s][v] = zc[(k * 2 + s) * per + v];
    if (rules[R_REFORM])
        for (int s = 0; s < 2; s++)
            for (int a = 0; a < n; a++)
                for (int b = 0; b < n; b++) c->zm[s][a][b] = zm[(s * n + a) * n + b];
    c->load = load;
    return c;
}

void nk_config_tables(void *cfg, const uint8_t *t33, const uint8_t *t34, const uint8_t *t43) {
    Config *c = cfg;
    c->t33 = t33;
    c->t34 = t34;
    c->t43 = t43;
    c->loaded = 1;
}

/* -- the game ------------------------------------------------------------------------------ */

static inline uint64_t full_key(const Config *c, const State *s) {
    return s->bkey ^ c->zs[s->side] ^ c->zh[0][s->hand[0]] ^ c->zh[1][s->hand[1]]
           ^ c->zr[s->pending];
}

static inline int flies(const Config *c, const State *st, int s) {
    int fly = c->r[R_FLYING];
    if (fly == FLY_NONE || st->hand[s]) return 0;
    if (pc(st->bb[s]) <= c->r[R_THRESHOLD]) return 1;
    if (fly == FLY_BOTH) {
        int o = s ^ 1;
        return !st->hand[o] && pc(st->bb[o]) <= c->r[R_THRESHOLD];
    }
    return 0;
}

static inline uint32_t takeable(const Config *c, const State *st, int o) {
    uint32_t opp = st->bb[o], in_mill = 0;
    for (int k = 0; k < c->nmills; k++) {
        uint32_t m = c->mills[k];
        if ((opp & m) == m) in_mill |= m;
    }
    uint32_t free_ = opp & ~in_mill;
    if (free_ || c->r[R_ALL_ANY]) return free_ ? free_ : opp;
    return 0;
}

static int generate(const Ctx *x, int *acts) {
    const Config *c = x->c;
    const State *st = &x->s;
    int s = st->side, n = 0;
    if (st->pending) {
        for (uint32_t t = takeable(c, st, s ^ 1); t; t &= t - 1)
            acts[n++] = mk(REMOVE, 0, __builtin_ctz(t));
        return n;
    }
    uint32_t own = st->bb[s];
    uint32_t empty = c->full & ~(own | st->bb[s ^ 1]);
    if (st->hand[s]) {
        for (uint32_t t = empty; t; t &= t - 1) acts[n++] = mk(PLACE, 0, __builtin_ctz(t));
        if (!c->r[R_MIP]) return n;
    }
    if (flies(c, st, s)) {
        for (uint32_t a = own; a; a &= a - 1) {
            int from = __builtin_ctz(a);
            for (uint32_t t = empty; t; t &= t - 1) acts[n++] = mk(MOVE, from, __builtin_ctz(t));
        }
    } else {
        for (uint32_t a = own; a; a &= a - 1) {
            int from = __builtin_ctz(a);
            for (uint32_t t = c->adj[from] & empty; t; t &= t - 1)
                acts[n++] = mk(MOVE, from, __builtin_ctz(t));
        }
    }
    return n;
}

static inline void end_turn(State *st, int s) { st->side = s ^ 1; }

/* Set the move side `s` may not undo to capture again, keeping the key in step. */
static inline void remember(const Config *c, State *st, int s, int move) {
    int old = st->last[s];
    if (old != NO_MOVE) st->bkey ^= c->zm[s][old >> 5][old & 31];
    if (move != NO_MOVE) st->bkey ^= c->zm[s][move >> 5][move & 31];
    st->last[s] = move;
}

static void push(Ctx *x, int code) {
    const Config *c = x->c;
    State *st = &x->s;
    Frame *f = &x->stack[x->sp++];
    f->saved = *st;
    f->action = code;
    f->bumped[0] = -1;
    int s = st->side, kind = code_kind(code), t = code_target(code);
    if (kind == REMOVE) {
        int o = s ^ 1;
        st->bb[o] &= ~(1u << t);
        st->bkey ^= c->zp[o][t];
        /* the remembered pebble is gone: its move can no longer be undone */
        if (c->r[R_REFORM] && st->last[o] != NO_MOVE && (st->last[o] & 31) == t)
            remember(c, st, o, NO_MOVE);
        st->quiet = 0;
        st->pending -= 1;
        if (st->pending && !takeable(c, st, o)) st->pending = 0;
        if (!st->pending) end_turn(st, s);
    } else {
        int rebuilt = 0;
        if (kind == PLACE) {
            st->bb[s] |= 1u << t;
            st->hand[s] -= 1;
            st->bkey ^= c->zp[s][t];
            st->quiet = 0;
            if (c->r[R_REFORM] && st->last[s] != NO_MOVE) remember(c, st, s, NO_MOVE);
        } else {
            int a = code_origin(code);
            if (c->r[R_REFORM]) {
                rebuilt = st->last[s] == (t << 5 | a);
                uint32_t own = st->bb[s];
                int broke = 0;
                for (int i = 0; i < c->nat[a]; i++)
                    if ((own & c->at[a][i]) == c->at[a][i]) broke = 1;
                if (broke || st->last[s] != NO_MOVE)
                    remember(c, st, s, broke ? (a << 5 | t) : NO_MOVE);
            }
            st->bb[s] ^= (1u << a) | (1u << t);
            st->bkey ^= c->zp[s][a] ^ c->zp[s][t];
            st->quiet += 1;
        }
        uint32_t own = st->bb[s];
        int closed = 0, limit = c->r[R_LIMIT], bumped = 0;
        for (int i = 0; i < c->nat[t]; i++) {
            if ((own & c->at[t][i]) != c->at[t][i]) continue;
            if (limit >= 0) {
                /* every formation counts, whether or not it could take; up to the limit */
                int k = c->mat[t][i], at = 2 * k + s, v = x->counts[at];
                if (v >= limit) continue;
                x->counts[at] = (uint8_t)(v + 1);
                f->bumped[bumped++] = (int8_t)at; /* a point lies in MAXMILLS_AT mills at most */
                if (bumped < MAXMILLS_AT) f->bumped[bumped] = -1;
                st->bkey ^= c->zc[k][s][v] ^ c->zc[k][s][v + 1];
            }
            if (!rebuilt) closed++;
        }
        if (closed && takeable(c, st, s ^ 1))
            st->pending = c->r[R_PER_MILL] ? closed : 1;
        else
            end_turn(st, s);
    }
    st->key = full_key(c, st);
}

static inline void pop(Ctx *x) {
    const Frame *f = &x->stack[--x->sp];
    x->s = f->saved;
    for (int i = 0; i < MAXMILLS_AT && f->bumped[i] >= 0; i++) x->counts[f->bumped[i]]--;
}

/* How often the current position has occurred: the game's count before the search, and
 * the search's own moves back to the last placement or removal (nothing before one can
 * come again: the pebbles on the board or in hand differ). */
static int occurrences(const Ctx *x) {
    uint64_t key = x->s.key;
    int n = 0;
    if (x->rep_keys) {
        for (uint32_t i = (uint32_t)key & x->rep_mask;; i = (i + 1) & x->rep_mask) {
            if (!x->rep_counts[i]) break;
            if (x->rep_keys[i] == key) { n = x->rep_counts[i]; break; }
        }
    }
    for (int i = x->sp - 1; i >= 0; i--) {
        const Frame *f = &x->stack[i];
        if (code_kind(f->action) != MOVE) break;
        /* the key after frame i is the saved state of frame i + 1, or the current one */
        uint64_t after = i + 1 < x->sp ? x->stack[i + 1].saved.key : key;
        if (after == key) n++;
    }
    return n;
}

/* The end the counts alone decide: 0 none, 1 the side to move wins, 2 it loses, 3 a draw. */
static int by_count(const Ctx *x) {
    const Config *c = x->c;
    const State *st = &x->s;
    int s = st->side, below = c->r[R_LOSE_BELOW];
    if (st->hand[s] + pc(st->bb[s]) < below) return 2;
    if (st->hand[s ^ 1] + pc(st->bb[s ^ 1]) < below) return 1;
    if (c->r[R_REP_DRAW] > 0 && occurrences(x) >= c->r[R_REP_DRAW]) return 3;
    if (c->r[R_QUIET_LIMIT] >= 0 && st->quiet >= c->r[R_QUIET_LIMIT]) return 3;
    return 0;
}

static inline int outcome_score(int end, int ply) {
    if (end == 1) return WIN - ply;
    if (end == 2) return -(WIN - ply);
    return 0;
}

/* The outcome when the side to move has no action (morris.py: _no_action_outcome). */
static int no_action_score(const Ctx *x, int ply) {
    const Config *c = x->c;
    const State *st = &x->s;
    if (!(c->full & ~(st->bb[0] | st->bb[1]))) {
        /* Both sides placed all their pebbles, none taken: the side to move placed first. */
        if (c->r[R_FULL_FIRST_LOSES]) return -(WIN - ply);
        return 0;
    }
    return c->r[R_BLOCKED_LOSES] ? -(WIN - ply) : 0;
}

/* -- the endgame databases (endgame.py: index, index34, result) ---------------------------- */

static uint32_t binom[33][8];

static void init_binom(void) {
    if (binom[0][0]) return;
    for (int n = 0; n <= 32; n++) {
        binom[n][0] = 1;
        for (int k = 1; k < 8; k++) binom[n][k] = n ? binom[n - 1][k - 1] + binom[n - 1][k] : 0;
    }
}

/* The rank of a k-point set of n points among itertools.combinations(range(n), k). */
static uint32_t set_rank(uint32_t mask, int n, int k) {
    uint32_t rank = 0;
    int prev = -1, i = 0;
    for (uint32_t m = mask; m; m &= m - 1, i++) {
        int p = __builtin_ctz(m);
        for (int j = prev + 1; j < p; j++) rank += binom[n - 1 - j][k - 1 - i];
        prev = p;
    }
    return rank;
}

static uint32_t squeeze(uint32_t opponent, uint32_t mover) {
    uint32_t out = 0;
    int k = 0;
    for (int p = 0; p < 32; p++) {
        if (mover >> p & 1) continue;
        if (opponent >> p & 1) out |= 1u << k;
        k++;
    }
    return out;
}

static int db_result(Ctx *x) {
    Config *c = (Config *)x->c;
    const State *st = &x->s;
    int s = st->side;
    uint32_t me = st->bb[s], them = st->bb[s ^ 1];
    int mine = pc(me), theirs = pc(them);
    int limit = c->r[R_QUIET_LIMIT];
    if (!c->loaded && c->load) c->load();
    if (!c->t33) return NO_RESULT;
    if (mine == 3 && theirs == 3) {
        if (st->pending) return NO_RESULT;
        int d = c->t33[set_rank(me, 24, 3) * 1330 + set_rank(squeeze(them, me), 21, 3)];
        if (d && limit >= 0 && st->quiet + d - 1 >= limit) return NO_RESULT;
        return d & 1 ? -d : d;
    }
    if (!c->t34 || mine + theirs != 7 || (mine < theirs ? mine : theirs) != 3) return NO_RESULT;
    if (st->pending) return NO_RESULT;
    int per = mine == 3 ? 5985 : 1140;
    uint32_t at = set_rank(me, 24, mine) * per + set_rank(squeeze(them, me), 24 - mine, 7 - mine);
    int byte = (mine == 3 ? c->t34 : c->t43)[at];
    if (!byte) return 0;
    int d = byte >= 128 ? byte - 128 : byte;
    if (limit >= 0 && st->quiet + d - 1 >= limit) return NO_RESULT;
    return byte >= 128 ? -d : d;
}

static inline int endgame_score(int result, int ply) {
    if (!result) return 0;
    return result > 0 ? WIN - ply - result : -(WIN - ply + result);
}

/* -- evaluation (evaluate.py: MorrisEvaluator) --------------------------------------------- */

/* Runnable mills of `mine` (evaluate.py: MorrisEvaluator._runnable): closed with a pebble
 * that can leave (a step to an empty neighbour, or a flight), or two pebbles and an empty point
 * a pebble of `mine` beside it (or flying) can fill, with no pebble of `theirs` beside the
 * point left or to fill. */
static int runnable(const Config *c, uint32_t mine, uint32_t theirs, uint32_t empty, int flies) {
    int n = 0;
    for (int k = 0; k < c->nmills; k++) {
        uint32_t m = c->mills[k], a = mine & m;
        if (a == m) {
            for (uint32_t t = m; t; t &= t - 1) {
                int p = __builtin_ctz(t);
                if ((flies || (c->adj[p] & empty)) && !(c->adj[p] & theirs)) {
                    n++;
                    break;
                }
            }
        } else if ((a & (a - 1)) && !(theirs & m)) {
            int p = hibit(m & empty);
            if ((flies || (c->adj[p] & mine & ~m)) && !(c->adj[p] & theirs)) n++;
        }
    }
    return n;
}

static int evaluate(const Ctx *x) {
    const Config *c = x->c;
    const State *st = &x->s;
    const int *w = c->w;
    int s = st->side, o = s ^ 1;
    uint32_t own = st->bb[s], opp = st->bb[o];
    int hs = st->hand[s], ho = st->hand[o];
    int ns = pc(own), no = pc(opp);
    if (ns + hs < c->r[R_LOSE_BELOW]) return -LOST;
    if (no + ho < c->r[R_LOSE_BELOW]) return LOST;
    int pending = st->pending;
    int score = PIECE * (ns + hs - no - ho) + 90 * pending;
    uint32_t empty = c->full & ~(own | opp);
    int placing = hs || ho;
    int fly_s = 0, fly_o = 0;
    if (c->r[R_FLYING] != FLY_NONE && !placing) {
        fly_s = flies(c, st, s);
        fly_o = flies(c, st, o);
    }
    int own_mills = 0, opp_mills = 0, own_two = 0, opp_two = 0;
    uint32_t own_close = 0, opp_close = 0;
    for (int k = 0; k < c->nmills; k++) {
        uint32_t m = c->mills[k], a = own & m, b = opp & m;
        if (!b) {
            if (a == m) own_mills++;
            else if (a && (a & (a - 1))) {
                own_two++;
                uint32_t cc = m & empty;
                if (hs || fly_s || (c->adj[hibit(cc)] & own & ~m)) own_close |= cc;
            }
        } else if (!a) {
            if (b == m) opp_mills++;
            else if (b & (b - 1)) {
                opp_two++;
                uint32_t cc = m & empty;
                if (ho || fly_o || (c->adj[hibit(cc)] & opp & ~m)) opp_close |= cc;
            }
        }
    }
    if (pending) return score + 10 * (own_mills - opp_mills);
    if (placing)
        score += w[W_PLACE_MILL] * (own_mills - opp_mills)
                 + w[W_PLACE_TWO] * (own_two - opp_two);
    else {
        score += w[W_MOVE_MILL] * (own_mills - opp_mills) + w[W_MOVE_TWO] * (own_two - opp_two);
        if ((own_mills || own_two) && !fly_o)
            score += w[W_RUNNABLE_OWN] * runnable(c, own, opp, empty, fly_s);
        if ((opp_mills || opp_two) && !fly_s)
            score -= w[W_RUNNABLE_OPP] * runnable(c, opp, own, empty, fly_o);
    }
    if (own_close) score += 70;
    int n_opp = pc(opp_close);
    if (n_opp == 1 && !own_close && !(hs || fly_s) && !(c->adj[hibit(opp_close)] & own))
        n_opp = 2;
    if (n_opp >= 2) score -= w[W_THREATS] + 10 * n_opp;
    else if (n_opp) score -= 15;
    int mob_s = 0, mob_o = 0, blk_s = 0, blk_o = 0;
    uint32_t free_ = 0;
    for (uint32_t t = own; t; t &= t - 1) mob_s += pc(c->adj[__builtin_ctz(t)] & empty);
    for (uint32_t t = opp; t; t &= t - 1) mob_o += pc(c->adj[__builtin_ctz(t)] & empty);
    for (uint32_t t = own | opp; t; t &= t - 1) {
        int p = __builtin_ctz(t);
        if (c->adj[p] & empty) free_ |= 1u << p;
    }
    if (fly_s) mob_s = 0;
    else blk_s = pc(own & ~free_);
    if (fly_o) mob_o = 0;
    else blk_o = pc(opp & ~free_);
    if (placing) {
        score += w[W_PLACE_MOBILITY] * (mob_s - mob_o)
                 - w[W_PLACE_BLOCKED] * (blk_s - blk_o);
    } else {
        if (!fly_s && mob_s == 0 && c->r[R_BLOCKED_LOSES]) return -LOST;
        score += w[W_MOVE_MOBILITY] * (mob_s - mob_o)
                 - w[W_MOVE_BLOCKED] * (blk_s - blk_o);
        if (!fly_o && mob_o == 0 && c->r[R_BLOCKED_LOSES]) score += 300;
    }
    return score;
}

/* -- the table ------------------------------------------------------------------------------ */

#define PROBES 8

static Entry *tt_find(const Ctx *x, uint64_t key) {
    uint32_t i = (uint32_t)(key ^ (key >> 32)) & x->tt_mask;
    for (int k = 0; k < PROBES; k++, i = (i + 1) & x->tt_mask) {
        Entry *e = &x->tt[i];
        if (!e->bound) return NULL;
        if (e->key == key) return e;
    }
    return NULL;
}

static void tt_store(Ctx *x, uint64_t key, int depth, int flag, int score, int move, int ply) {
    if (score >= MATE_BOUND) score += ply;
    else if (score <= -MATE_BOUND) score -= ply;
    uint32_t i = (uint32_t)(key ^ (key >> 32)) & x->tt_mask;
    Entry *slot = NULL, *shallow = NULL;
    for (int k = 0; k < PROBES; k++, i = (i + 1) & x->tt_mask) {
        Entry *e = &x->tt[i];
        if (!e->bound) {
            slot = e;
            if (x->tt_count < x->used_cap) x->used[x->tt_count] = i;
            x->tt_count++;
            break;
        }
        if (e->key == key) { slot = e; break; }
        if (!shallow || e->depth < shallow->depth) shallow = e;
    }
    if (!slot) slot = shallow; /* full around here: the shallowest entry gives way */
    slot->key = key;
    slot->score = score;
    slot->move = (int16_t)move;
    slot->depth = (int8_t)(depth > 127 ? 127 : depth);
    slot->bound = (uint8_t)(flag + 1);
}

/* -- the search ----------------------------------------------------------------------------- */

static int order(Ctx *x, int *acts, int n, int tt_move, int ply) {
    if (n < 2) { x->tactical = n; return n; }
    const Config *c = x->c;
    int s = x->s.side;
    uint32_t own = x->s.bb[s], opp = x->s.bb[s ^ 1];
    int k0 = -1, k1 = -1;
    if (ply < KILLER_PLIES) { k0 = x->killers[ply][0]; k1 = x->killers[ply][1]; }
    int64_t keys[MAXACT];
    int idx = 1023;
    if (code_kind(acts[0]) == REMOVE) {
        for (int i = 0; i < n; i++) {
            int t = code_target(acts[i]);
            int64_t v = (int64_t)1 << 32;
            for (int j = 0; j < c->nat[t]; j++) {
                uint32_t m = c->at[t][j], y = opp & m;
                if (y == m) v -= 1;
                else if ((y & (y - 1)) && !(own & m)) v += 4;
            }
            keys[i] = v << 10 | idx--;
        }
    } else {
        for (int i = 0; i < n; i++) {
            int a = acts[i], t = code_target(a);
            uint32_t stay = code_kind(a) == MOVE ? own & ~(1u << code_origin(a)) : own;
            int64_t v = 0;
            for (int j = 0; j < c->nat[t]; j++) {
                uint32_t r = c->rests[t][j];
                if ((stay & r) == r) { v = (int64_t)1 << 31; break; }
                if ((opp & r) == r) v = (int64_t)1 << 30;
            }
            if (!v) v = (a == k0 || a == k1) ? (int64_t)1 << 29 : x->hist[a];
            keys[i] = v << 10 | idx--;
        }
    }
    if (tt_move >= 0) {
        for (int i = 0; i < n; i++) {
            if (acts[i] == tt_move) { keys[i] = (int64_t)1 << 50 | (1023 - i); break; }
        }
    }
    /* insertion sort, descending: the keys are distinct (the index is in the low bits) */
    for (int i = 1; i < n; i++) {
        int64_t k = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < k) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = k;
    }
    int tactical = 0;
    while (tactical < n && keys[tactical] >= (int64_t)1 << 39) tactical++;
    x->tactical = tactical;
    int copy[MAXACT];
    memcpy(copy, acts, n * sizeof(int));
    for (int i = 0; i < n; i++) acts[i] = copy[1023 - (int)(keys[i] & 1023)];
    return n;
}

static void reward(Ctx *x, int a, int depth, int ply) {
    if (code_kind(a) == REMOVE) return;
    x->hist[a] += depth * depth;
    if (ply < KILLER_PLIES) {
        int *k = x->killers[ply];
        if (k[0] != a) { k[1] = k[0]; k[0] = a; }
    }
}

static void check(Ctx *x) {
    if (!x->poll) return;
    x->poll();
    if (*x->halt) longjmp(x->stop, 1);
}

static int negamax(Ctx *x, int depth, int alpha, int beta, int ply) {
    x->nodes++;
    if (!(x->nodes & x->check_mask)) check(x);
    int end = by_count(x);
    if (end) return outcome_score(end, ply);
    const Config *c = x->c;
    const State *st = &x->s;
    if (c->r[R_TABLES]) {
        int n0 = pc(st->bb[0]), n1 = pc(st->bb[1]);
        if (n0 + n1 <= 7 && n0 >= 3 && n1 >= 3 && !st->hand[0] && !st->hand[1]) {
            int r = db_result(x);
            if (r != NO_RESULT) return endgame_score(r, ply);
        }
    }
    uint64_t key = st->key;
    Entry *e = tt_find(x, key);
    int tt_move = -1;
    if (e) {
        tt_move = e->move;
        if (e->depth >= depth) {
            int score = e->score;
            if (score >= MATE_BOUND) score -= ply;
            else if (score <= -MATE_BOUND) score += ply;
            int flag = e->bound - 1;
            if (flag == EXACT) return score;
            if (flag == LOWER) {
                if (score >= beta) return score;
            } else if (score <= alpha) {
                return score;
            }
        }
    }
    if (depth <= 0) return evaluate(x);
    int acts[MAXACT];
    int n = generate(x, acts);
    if (!n) return no_action_score(x, ply);
    int turn = st->side;
    int alpha0 = alpha, best_score = -INF, best = -1;
    order(x, acts, n, tt_move, ply);
    int quiet_from = x->lmr_after ? (x->tactical > x->lmr_after ? x->tactical : x->lmr_after) : n;
    int reduce = depth >= x->lmr_min_depth;
    int ply1 = ply + 1;
    for (int i = 0; i < n; i++) {
        int a = acts[i], score;
        push(x, a);
        int same = x->s.side == turn;
        if (i == 0) {
            score = same ? negamax(x, depth, alpha, beta, ply1)
                         : -negamax(x, depth - 1, -beta, -alpha, ply1);
        } else {
            if (reduce && i >= quiet_from && !same)
                score = -negamax(x, depth - 2, -alpha - 1, -alpha, ply1);
            else
                score = alpha + 1;
            if (score > alpha) {
                score = same ? negamax(x, depth, alpha, alpha + 1, ply1)
                             : -negamax(x, depth - 1, -alpha - 1, -alpha, ply1);
                if (alpha < score && score < beta)
                    score = same ? negamax(x, depth, alpha, beta, ply1)
                                 : -negamax(x, depth - 1, -beta, -alpha, ply1);
            }
        }
        pop(x);
        if (score > best_score) {
            best_score = score;
            best = a;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    reward(x, a, depth, ply);
                    break;
                }
            }
        }
    }
    int flag = best_score <= alpha0 ? UPPER : best_score >= beta ? LOWER : EXACT;
    tt_store(x, key, depth, flag, best_score, best, ply);
    return best_score;
}

static inline int child(Ctx *x, int turn, int depth, int alpha, int beta, int ply) {
    if (x->s.side == turn) return negamax(x, depth, alpha, beta, ply);
    return -negamax(x, depth - 1, -beta, -alpha, ply);
}

/* -- the interface -------------------------------------------------------------------------- */

void *nk_ctx_new(void *cfg, int tt_bits) {
    init_binom();
    Ctx *x = calloc(1, sizeof(Ctx));
    if (!x) return NULL;
    x->c = cfg;
    x->tt = calloc((size_t)1 << tt_bits, sizeof(Entry));
    if (!x->tt) { free(x); return NULL; }
    x->tt_mask = (1u << tt_bits) - 1;
    x->used_cap = ((long)1 << tt_bits) / 16;
    x->used = malloc(sizeof(uint32_t) * (size_t)x->used_cap);
    if (!x->used) x->used_cap = 0; /* every clear then empties the whole table */
    return x;
}

void nk_ctx_free(void *ctx) {
    Ctx *x = ctx;
    if (!x) return;
    free(x->tt);
    free(x->used);
    free(x->rep_keys);
    free(x->rep_counts);
    free(x);
}

static void clear_table(Ctx *x) {
    if (!x->tt_count) return;
    if (x->tt_count <= x->used_cap) {
        for (long k = 0; k < x->tt_count; k++) x->tt[x->used[k]].bound = 0;
    } else {
        memset(x->tt, 0, sizeof(Entry) * ((size_t)x->tt_mask + 1));
    }
    x->tt_count = 0;
}

/* Forget the table and the move-ordering statistics (a new game). */
void nk_ctx_clear(void *ctx) {
    Ctx *x = ctx;
    clear_table(x);
    memset(x->hist, 0, sizeof(x->hist));
}

/* The position to search, with the game's repetition counts (key -> count). */
int nk_set_position(void *ctx, uint32_t bb0, uint32_t bb1, int hand0, int hand1, int side,
                    int pending, int quiet, uint64_t bkey, const int *last,
                    const uint8_t *counts, int nrep, const uint64_t *rep_keys,
                    const int *rep_counts) {
    Ctx *x = ctx;
    const Config *c = x->c;
    if (hand0 < 0 || hand1 < 0 || hand0 > c->r[R_PIECES] || hand1 > c->r[R_PIECES]
        || pending < 0 || pending > 7)
        return -1;
    State *st = &x->s;
    st->bb[0] = bb0;
    st->bb[1] = bb1;
    st->hand[0] = hand0;
    st->hand[1] = hand1;
    st->side = side;
    st->pending = pending;
    st->quiet = quiet;
    st->bkey = bkey;
    st->last[0] = last[0];
    st->last[1] = last[1];
    memcpy(x->counts, counts, 2 * (size_t)c->nmills);
    st->key = full_key(c, st);
    x->sp = 0;
    free(x->rep_keys);
    free(x->rep_counts);
    x->rep_keys = NULL;
    x->rep_counts = NULL;
    if (nrep > 0) {
        uint32_t size = 16;
        while (size < 2u * (uint32_t)nrep) size <<= 1;
        x->rep_keys = calloc(size, sizeof(uint64_t));
        x->rep_counts = calloc(size, sizeof(int));
        if (!x->rep_keys || !x->rep_counts) return -1;
        x->rep_mask = size - 1;
        for (int k = 0; k < nrep; k++) {
            if (rep_counts[k] <= 0) continue;
            uint32_t i = (uint32_t)rep_keys[k] & x->rep_mask;
            while (x->rep_counts[i]) i = (i + 1) & x->rep_mask;
            x->rep_keys[i] = rep_keys[k];
            x->rep_counts[i] = rep_counts[k];
        }
    }
    return 0;
}

uint64_t nk_key(void *ctx) { return ((Ctx *)ctx)->s.key; }

/* A search's start (Searcher.search): the table cleared when over `tt_limit` entries, the
 * history faded, the killers forgotten. */
void nk_begin(void *ctx, long tt_limit) {
    Ctx *x = ctx;
    x->nodes = 0;
    if (x->tt_count > tt_limit) clear_table(x);
    for (int i = 0; i < NCODES; i++) x->hist[i] >>= 2;
    for (int i = 0; i < KILLER_PLIES; i++) x->killers[i][0] = x->killers[i][1] = -1;
}

long long nk_nodes(void *ctx) { return ((Ctx *)ctx)->nodes; }

/* The legal actions in generation order, and the number of them (0: the game is over). */
int nk_legal(void *ctx, int *out) {
    Ctx *x = ctx;
    if (by_count(x)) return 0;
    return generate(x, out);
}

/* The first action of the root's order without a table move (the answer before any
 * iteration finishes). */
int nk_first(void *ctx) {
    Ctx *x = ctx;
    int acts[MAXACT];
    int n = nk_legal(x, acts);
    if (!n) return -1;
    order(x, acts, n, -1, 0);
    return acts[0];
}

/* One iteration at the root (Searcher._root). out: best action, its score, whether the
 * search was stopped, and the best action and score found before the stop (if any). With
 * all_scores, `scores` gets each root action and its score, in the order searched. Returns
 * the number of root actions searched. */
int nk_root(void *ctx, int depth, int all_scores, int lmr_after, int lmr_min_depth,
            long check_every, poll_fn poll, volatile int *halt, int *out, int *scores) {
    Ctx *x = ctx;
    x->lmr_after = lmr_after;
    x->lmr_min_depth = lmr_min_depth;
    x->check_mask = (uint32_t)(check_every - 1);
    x->poll = poll;
    x->halt = halt;
    x->has_partial = 0;
    int base = x->sp;
    int acts[MAXACT];
    int n = nk_legal(x, acts);
    out[2] = 0;
    out[3] = 0;
    if (!n) return 0;
    if (setjmp(x->stop)) {
        while (x->sp > base) pop(x);
        out[2] = 1;
        out[3] = x->has_partial;
        out[4] = x->partial_best;
        out[5] = x->partial_score;
        return -1;
    }
    check(x); /* Searcher._check before each iteration */
    uint64_t key = x->s.key;
    Entry *e = tt_find(x, key);
    order(x, acts, n, e ? e->move : -1, 0);
    int turn = x->s.side;
    int alpha = -INF, beta = INF, best_score = -INF, best = acts[0];
    for (int i = 0; i < n; i++) {
        int a = acts[i], score;
        push(x, a);
        if (all_scores) {
            score = child(x, turn, depth, -INF, beta, 1);
        } else if (i == 0) {
            score = child(x, turn, depth, alpha, beta, 1);
        } else {
            score = child(x, turn, depth, alpha, alpha + 1, 1);
            if (score > alpha) score = child(x, turn, depth, alpha, beta, 1);
        }
        pop(x);
        if (all_scores) {
            scores[2 * i] = a;
            scores[2 * i + 1] = score;
        }
        if (score > best_score) {
            best_score = score;
            best = a;
            if (score > alpha) alpha = score;
        }
        if (!all_scores) {
            x->has_partial = 1;
            x->partial_best = best;
            x->partial_score = best_score;
        }
    }
    tt_store(x, key, depth, EXACT, best_score, best, 0);
    out[0] = best;
    out[1] = best_score;
    return n;
}

/* The table's action for a key, or -1 (the principal variation is read through it). */
int nk_tt_move(void *ctx, uint64_t key) {
    Entry *e = tt_find(ctx, key);
    return e ? e->move : -1;
}

/* The static score of the position, for the side to move. */
int nk_evaluate(void *ctx) { return evaluate(ctx); }

/* A database result for the position (NO_RESULT: none), as Searcher asks it. */
int nk_db_result(void *ctx) { return db_result(ctx); }

static uint64_t perft(Ctx *x, int depth, uint64_t *made) {
    if (depth <= 0) return 1;
    int acts[MAXACT];
    if (by_count(x)) return 1;
    int n = generate(x, acts);
    if (!n) return 1;
    if (depth == 1) return (uint64_t)n;
    *made += (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        push(x, acts[i]);
        total += perft(x, depth - 1, made);
        pop(x);
    }
    return total;
}

/* Leaves `depth` plies below the position, the last ply counted in bulk (perft.py). */
uint64_t nk_perft(void *ctx, int depth, uint64_t *made) {
    return perft(ctx, depth, made); /* each push is popped: the position is left as it was */
}

/* Play an action on the core's position (generation order code), as Game.push does; the key
 * after it is nk_key. For the tests that walk a game in both engines. */
int nk_push(void *ctx, int code) {
    Ctx *x = ctx;
    if (x->sp >= MAXPLY) return -1;
    push(x, code);
    return 0;
}
