/* drift.c: how the results move with a run's position in its boot.
 * A header of its own so that pjt-stats.h stays the analysis's. */
#ifndef PJT_DRIFT_H
#define PJT_DRIFT_H

#include "pjt-stats.h"

/* The metric drift is measured on: the declared comparisons' primary
 * metric on the RFC's question (pulls drift, throughput does not). */
#define DRIFT_METRIC "lb_pulls_total"

/* One declared comparison estimated from the blocks of each half of
 * each boot, and the two halves against each other. */
struct drift_halves {
	int declared;               /* index into analysis.declared */
	struct comparison half[2];  /* log ratios: first, second half of the boots */
	struct comparison diff;     /* log of (first half's ratio / second half's), per boot */
	int at_middle;              /* blocks whose mean position is the boot's middle: in neither half */
	int agree;                  /* the halves agree (see agree_by) */
	const char *agree_by;       /* "difference" (per boot) or "overlap" (one boot: no pairing) */
};

/* A drift candidate: a state_* column of runs.csv (scheduler state read
 * at the end of each run), its slope over positions as the metric's. */
struct drift_candidate {
	int col;                    /* column in the table */
	int runs, zeros;            /* ok runs with a value; of them at 0 (out of the logs) */
	struct comparison slope;    /* log value per position, boots as units */
};

struct drift_study {
	int study;                  /* index into analysis.studies */
	int npos;                   /* positions 1..npos */
	double *geomean;            /* [group * npos + pos-1]: NaN where no run */
	int *n;                     /* runs behind each geomean */
	int zeros;                  /* ok runs with a 0 count: out of the logs */
	int runs;                   /* ok runs with the metric */
	struct comparison slope;    /* log metric per position, boots as units */
	int ncandidates;
	struct drift_candidate *candidates; /* the state_* columns this study has values of */
	int nhalves;
	struct drift_halves *halves;
};

/* Every study that measured DRIFT_METRIC; returns how many (NULL, 0: none). */
int drift_of(const struct analysis *a, struct drift_study **out);
/* pjt-stats --drift DIR: the text of drift_of over DIR/runs.csv. */
int drift_main(const char *dir);

#endif
