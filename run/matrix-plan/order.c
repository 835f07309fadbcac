/* matrix-plan: the order of each repetition block: a seeded shuffle or
 * Williams designs. */
#include "matrix-plan.h"

/* The plan's order: splitmix64, the same on every host. */
uint64_t rng_state;

static uint64_t rng_next(void)
{
	return splitmix64_next(&rng_state);
}

static unsigned rng_below(unsigned n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;

	do
		r = rng_next();
	while (r >= limit);
	return (unsigned)(r % n);
}

/* Fisher-Yates, the seeded generator's draws from the last element down. */
void shuffle(int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below((unsigned)i + 1), tmp = a[i];

		a[i] = a[j];
		a[j] = tmp;
	}
}

/*
 * A Williams design for t treatments (Williams 1949, the crossover
 * trials' standard): sequences in which every treatment takes every
 * position equally often and follows every other treatment equally
 * often.  Row r of the square is the first row 0, 1, t-1, 2, t-2, ... plus
 * r (mod t); for even t the t rows are the design, for odd t each ordered
 * pair is adjacent once in the square or once in its mirror (each row
 * reversed), so the design is the 2t rows of both.  The mirror rows come in
 * the order that continues the square's first elements (0, 1, ..., t-1,
 * then 0 again), so that any t consecutive sequences put each treatment
 * first once: the first run of a boot is where the drift is steepest.
 * Fills seq[s * t + p] (sequence s, position p) and returns the number of
 * sequences: 1 for t = 1, t for even t, 2t for odd t.
 */
static int williams_sequences(int t, int *seq)
{
	int *first = seq, lo = 1, hi = t - 1, mirror_start;

	first[0] = 0;
	for (int p = 1; p < t; p++)
		first[p] = p % 2 ? lo++ : hi--;
	for (int r = 1; r < t; r++)
		for (int p = 0; p < t; p++)
			seq[r * t + p] = (first[p] + r) % t;
	if (t % 2 == 0 || t == 1)
		return t;
	/* the reverse of square row r starts with first[t-1] + r: the mirror
	 * rows begin with the r whose reverse starts with 0 */
	mirror_start = (t - first[t - 1]) % t;
	for (int u = 0; u < t; u++)
		for (int p = 0; p < t; p++)
			seq[(t + u) * t + p] = seq[((mirror_start + u) % t) * t + (t - 1 - p)];
	return 2 * t;
}

/*
 * order williams: the cells of a block are its workloads, each running
 * every combo once in a row (the comparison is between combos of one
 * workload, so its runs stay together, close in time).  The combos of each
 * workload follow a Williams design of S_c sequences, the workloads one of
 * S_w: design step x (0 .. S_c x S_w - 1) is combo sequence x mod S_c with
 * workload sequence x / S_c, so over a cycle of S_c x S_w blocks every
 * combo order meets every workload order.
 *
 * Which step a block takes: pulls drift over a boot (steeply at first), so
 * the blocks in the same slot of their boots (every boot's first block,
 * every second, ...) should run consecutive steps, as balanced as their
 * number allows, while the whole plan runs every step equally often over
 * whole cycles.  Block (slot j, boot i, both counted from 0) takes step
 * (j x c + i) mod S, S = S_c x S_w: with c = boots mod S that numbers the
 * blocks slot by slot (j x boots + i), so the plan's blocks take
 * consecutive steps; when the boots are whole cycles (boots mod S = 0)
 * every slot is balanced by itself and c = 1 moves each next block of a
 * boot one step on, so that a boot does not repeat one order in all its
 * blocks.  The seed draws a labelling per topology: which
 * combo (per workload) and which workload is treatment 0, 1, ...
 */
static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		perror(PROG);
		exit(1);
	}
	return p;
}

void williams_init(struct williams *w)
{
	int nc = m.nr_combos, nw = m.nr_workloads;

	w->combo_seq = xcalloc((size_t)2 * nc * nc, sizeof(int));
	w->workload_seq = xcalloc((size_t)2 * nw * nw, sizeof(int));
	w->combo_seqs = williams_sequences(nc, w->combo_seq);
	w->workload_seqs = williams_sequences(nw, w->workload_seq);
	w->combo_label = xcalloc((size_t)m.nr_topologies * nw * nc, sizeof(int));
	w->workload_label = xcalloc((size_t)m.nr_topologies * nw, sizeof(int));
	for (int t = 0; t < m.nr_topologies; t++) {
		int *wl = w->workload_label + t * nw;

		for (int i = 0; i < nw; i++)
			wl[i] = i;
		shuffle(wl, nw);
		for (int k = 0; k < nw; k++) {
			int *cl = w->combo_label + (t * nw + k) * nc;

			for (int i = 0; i < nc; i++)
				cl[i] = i;
			shuffle(cl, nc);
		}
	}
}

/* The block in slot SLOT (0, 1, ...) of boot BOOT (1, 2, ...) of topology
 * t: its cells (combo x workloads + workload) in order. */
void williams_block(const struct williams *w, int t, long slot, long boot, int *order)
{
	int nc = m.nr_combos, nw = m.nr_workloads, k = 0;
	long steps = (long)w->combo_seqs * w->workload_seqs;
	long c = m.boots % steps ? m.boots % steps : 1, x = (slot * c + boot - 1) % steps;
	const int *cs = w->combo_seq + (x % w->combo_seqs) * nc;
	const int *ws = w->workload_seq + (x / w->combo_seqs) * nw;

	for (int pw = 0; pw < nw; pw++) {
		int wl = w->workload_label[t * nw + ws[pw]];

		for (int pc = 0; pc < nc; pc++)
			order[k++] = w->combo_label[(t * nw + wl) * nc + cs[pc]] * nw + wl;
	}
}

void williams_free(struct williams *w)
{
	free(w->combo_seq);
	free(w->workload_seq);
	free(w->combo_label);
	free(w->workload_label);
}
