/* Written by `navakankari build-engine` from core_tables.py, actions.ActionKind and
 * evaluate.MorrisWeights (core_header.py): change those, not this file. */
#ifndef NAVAKANKARI_CORE_TABLES_H
#define NAVAKANKARI_CORE_TABLES_H

#define MAXN 32
#define MAXMILLS 32
#define MAXMILLS_AT 4
#define MAXLIMIT 15
#define MAXACT 1024

#define INF 10000000
#define WIN 1000000
#define MATE_BOUND 990000
#define LOST 20000
#define PIECE 100
#define NO_RESULT (-1000000)

/* A table entry's bound. */
enum { EXACT = 0, LOWER = 1, UPPER = 2 };
/* The action kinds (the kind in an action's number). */
enum { PLACE = 0, MOVE = 1, REMOVE = 2, JUMP = 3 };
/* The flying rule, as core.py numbers it. */
enum { FLY_NONE = 0, FLY_SELF = 1, FLY_BOTH = 2 };
/* Rule flags, in the order core.py sends them. */
enum { R_PIECES = 0, R_FLYING = 1, R_THRESHOLD = 2, R_PER_MILL = 3, R_ALL_ANY = 4, R_MIP = 5, R_LOSE_BELOW = 6, R_BLOCKED_LOSES = 7, R_FULL_FIRST_LOSES = 8, R_REP_DRAW = 9, R_QUIET_LIMIT = 10, R_TABLES = 11, R_LIMIT = 12, R_REFORM = 13, R_COUNT = 14 };
/* Evaluation weights, in MorrisWeights' order. */
enum { W_PLACE_MILL = 0, W_PLACE_TWO = 1, W_PLACE_MOBILITY = 2, W_PLACE_BLOCKED = 3, W_MOVE_MILL = 4, W_MOVE_TWO = 5, W_MOVE_MOBILITY = 6, W_MOVE_BLOCKED = 7, W_THREATS = 8, W_RUNNABLE_OWN = 9, W_RUNNABLE_OPP = 10, W_COUNT = 11 };

#endif
