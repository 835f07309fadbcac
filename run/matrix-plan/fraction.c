/* matrix-plan: regular two-level fractions (fraction ...), their cells,
 * defining relation and alias chains. */
#include "matrix-plan.h"

/*
 * fraction FEATURE... generators X=WORD... | resolution N: a regular
 * two-level fraction.  The features are lettered A, B, C... as written;
 * with p generators the first k-p letters are the base (a full factorial
 * over them) and each generated letter is the product of base letters
 * (E=BCD: E is set in a cell when an odd number of B, C, D are).  In
 * letter masks (bit i = letter i) a generator is the word WORD|X, and the
 * defining relation is every product of the generators' words.
 */
struct fraction {
	unsigned bits[NR_BITS]; /* letter -> project bit */
	unsigned gen[NR_BITS];  /* generated letter -> its base letters (0: a base letter) */
	int k, p;
	int line;
};

#define MAX_FRACTIONS 8
static struct fraction fractions[MAX_FRACTIONS];
static int nr_fractions;

/*
 * The standard minimum-aberration generators, transcribed from NIST's
 * Dataplot table DEXRES4 ("Index of Minimal-Sample-Size Resolution-4
 * 2**(k-p) Designs": factors 4, 6, 7, 8; its 5-factor row is garbled, so
 * 2^(5-1) takes the half fraction's only word of full length, E=ABCD).
 * The resolution each gives is computed (fraction_resolution), not
 * written here: run/tests/test-matrix.sh compares 2^(8-4) with the table.
 */
static const struct {
	int k;
	const char *generators[4];
} standard_fractions[] = {
	{ 4, { "D=ABC" } },
	{ 5, { "E=ABCD" } },
	{ 6, { "E=ABC", "F=BCD" } },
	{ 7, { "E=ABC", "F=BCD", "G=ACD" } },
	{ 8, { "E=BCD", "F=ACD", "G=ABC", "H=ABD" } },
};

/* The defining relation's words (all 2^p - 1 products of the generators). */
static int fraction_words(const struct fraction *f, unsigned *words)
{
	int n = 0;

	for (unsigned sub = 1; sub < (1u << f->p); sub++) {
		unsigned w = 0;

		for (int j = 0; j < f->p; j++)
			if (sub & (1u << j))
				w ^= f->gen[f->k - f->p + j] | 1u << (f->k - f->p + j);
		words[n++] = w;
	}
	return n;
}

/* The shortest word's length (a full factorial: k + 1, nothing aliased). */
static int fraction_resolution(const struct fraction *f)
{
	unsigned words[1u << NR_BITS];
	int n = fraction_words(f, words), r = f->k + 1;

	for (int i = 0; i < n; i++)
		if (__builtin_popcount(words[i]) < r)
			r = __builtin_popcount(words[i]);
	return r;
}

/* X=WORD into f->gen; errors at LINE, 0 if good. */
static int parse_generator(int line, struct fraction *f, const char *text)
{
	int base = f->k - f->p, x;
	unsigned word = 0;

	if (strlen(text) < 3 || text[1] != '=' || !isupper((unsigned char)text[0])) {
		error_at(line, "fraction: generator '%s': want LETTER=LETTERS (E=BCD: E is the product of B, C and D)", text);
		return -1;
	}
	x = text[0] - 'A';
	if (x >= f->k) {
		error_at(line, "fraction: generator '%s': no factor %c (the %d features are A to %c)", text,
			 text[0], f->k, 'A' + f->k - 1);
		return -1;
	}
	if (x < base) {
		error_at(line, "fraction: generator '%s': %c is a base factor (with %d generators the base is A to %c; "
			 "the generated factors are %c to %c)", text, text[0], f->p, 'A' + base - 1, 'A' + base, 'A' + f->k - 1);
		return -1;
	}
	if (f->gen[x]) {
		error_at(line, "fraction: factor %c is generated twice", text[0]);
		return -1;
	}
	for (const char *c = text + 2; *c; c++) {
		int l = *c - 'A';

		if (!isupper((unsigned char)*c) || l >= f->k) {
			error_at(line, "fraction: generator '%s': no factor '%c' (the %d features are A to %c)", text, *c,
				 f->k, 'A' + f->k - 1);
			return -1;
		}
		if (l >= base) {
			error_at(line, "fraction: generator '%s': %c is itself generated: a word is a product of base factors (A to %c)",
				 text, *c, 'A' + base - 1);
			return -1;
		}
		if (word & (1u << l)) {
			error_at(line, "fraction: generator '%s': %c twice", text, *c);
			return -1;
		}
		word |= 1u << l;
	}
	f->gen[x] = word;
	return 0;
}

void do_fraction(int line, int argc, char **argv)
{
	static const char usage[] = "usage: fraction FEATURE... generators X=WORD... | fraction FEATURE... resolution N";
	struct fraction f = { .line = line };
	unsigned seen = 0;
	int kw = 1, bad = 0;

	while (kw < argc && strcmp(argv[kw], "generators") && strcmp(argv[kw], "resolution"))
		kw++;
	if (kw == argc || kw == argc - 1) {
		error_at(line, "%s", usage);
		return;
	}
	f.k = kw - 1;
	if (f.k < 3 || f.k > (int)NR_BITS) {
		error_at(line, "fraction over %d features: want 3 to %u", f.k, (unsigned)NR_BITS);
		return;
	}
	if (parse_bits(line, f.k, argv + 1, &seen, f.bits))
		return;
	if (!strcmp(argv[kw], "resolution")) {
		unsigned long long r;
		size_t i;

		if (argc != kw + 2 || parse_uint(argv[kw + 1], 100, &r) || r < 3) {
			error_at(line, "fraction: resolution '%s': want one whole number, 3 or more (3: main effects "
				 "free of each other, 4: also of two-factor interactions)", argv[kw + 1]);
			return;
		}
		for (i = 0; i < sizeof(standard_fractions) / sizeof(standard_fractions[0]); i++)
			if (standard_fractions[i].k == f.k)
				break;
		if (i < sizeof(standard_fractions) / sizeof(standard_fractions[0])) {
			for (f.p = 0; f.p < 4 && standard_fractions[i].generators[f.p]; f.p++)
				;
			for (int j = 0; j < f.p; j++)
				bad |= parse_generator(line, &f, standard_fractions[i].generators[j]);
		}
		if (i == sizeof(standard_fractions) / sizeof(standard_fractions[0]) || bad ||
		    fraction_resolution(&f) < (int)r) {
			error_at(line, "fraction: no standard fraction of %d features with resolution %llu here "
				 "(the table has 2^(4-1) IV, 2^(5-1) V, 2^(6-2) IV, 2^(7-3) IV, 2^(8-4) IV): "
				 "give generators, or use factorial", f.k, r);
			return;
		}
	} else {
		f.p = argc - kw - 1;
		if (f.p >= f.k - 1) {
			error_at(line, "fraction: %d generators for %d features leave fewer than 2 base factors", f.p, f.k);
			return;
		}
		for (int j = kw + 1; j < argc; j++)
			bad |= parse_generator(line, &f, argv[j]) != 0;
		if (bad)
			return;
		for (int x = f.k - f.p; x < f.k; x++)
			if (!f.gen[x]) {
				error_at(line, "fraction: factor %c (%s) has no generator: with %d generators, %c to %c "
					 "are generated", 'A' + x, project_bits[f.bits[x]], f.p, 'A' + f.k - f.p, 'A' + f.k - 1);
				return;
			}
	}
	if (fraction_resolution(&f) < 3) {
		unsigned words[1u << NR_BITS];
		int n = fraction_words(&f, words);

		for (int i = 0; i < n; i++) {
			int a = __builtin_ctz(words[i]), b;

			if (__builtin_popcount(words[i]) > 2)
				continue;
			if (__builtin_popcount(words[i]) == 1) {
				error_at(line, "fraction: factor %c (%s) is the word %c of the defining relation: "
					 "it never changes", 'A' + a, project_bits[f.bits[a]], 'A' + a);
				continue;
			}
			b = 31 - __builtin_clz(words[i]);
			error_at(line, "fraction: main effects %c (%s) and %c (%s) are aliased (the word %c%c is in "
				 "the defining relation: resolution 2): no main effect could be told from the other",
				 'A' + a, project_bits[f.bits[a]], 'A' + b, project_bits[f.bits[b]], 'A' + a, 'A' + b);
		}
		return;
	}
	if (nr_fractions == MAX_FRACTIONS) {
		error_at(line, "more than %d fraction lines", MAX_FRACTIONS);
		return;
	}
	fractions[nr_fractions++] = f;
}

/* The letters of a cell of F (base letters BASE_MASK). */
static unsigned fraction_cell(const struct fraction *f, unsigned base_mask)
{
	unsigned letters = base_mask;

	for (int x = f->k - f->p; x < f->k; x++)
		if (__builtin_popcount(f->gen[x] & base_mask) % 2)
			letters |= 1u << x;
	return letters;
}

void expand_fractions(void)
{
	for (int i = 0; i < nr_fractions; i++) {
		const struct fraction *f = &fractions[i];

		for (unsigned b = 0; b < (1u << (f->k - f->p)); b++)
			if (add_cell(f->line, "fraction", f->bits, f->k, fraction_cell(f, b)))
				return;
	}
}

static void letters_text(unsigned w, char *out)
{
	int n = 0;

	for (int l = 0; l < (int)NR_BITS; l++)
		if (w & (1u << l))
			out[n++] = (char)('A' + l);
	out[n] = 0;
}

/* A word's order in the plan: shorter first, then alphabetical. */
static int word_cmp_len(const void *pa, const void *pb)
{
	unsigned a = *(const unsigned *)pa, b = *(const unsigned *)pb;
	char ta[NR_BITS + 1], tb[NR_BITS + 1];

	if (__builtin_popcount(a) != __builtin_popcount(b))
		return __builtin_popcount(a) - __builtin_popcount(b);
	letters_text(a, ta);
	letters_text(b, tb);
	return strcmp(ta, tb);
}

/*
 * The plan's records of each fraction:
 *   fraction K P RESOLUTION CELLS | factor LETTER FEATURE | generator X=WORD
 *   defining I=WORD=WORD...
 *   alias TERM ALIASES: each main effect, then each chain of two-factor
 *   interactions (its first member) not already named, with its aliases
 *   of at most two letters ("-": none).
 */
void print_fractions(void)
{
	for (int i = 0; i < nr_fractions; i++) {
		const struct fraction *f = &fractions[i];
		unsigned words[1u << NR_BITS];
		int n = fraction_words(f, words);
		char text[NR_BITS + 1], defining[(NR_BITS + 1) << NR_BITS] = "I";
		unsigned terms[NR_BITS * (NR_BITS + 1) / 2];
		int nterms = 0;
		unsigned char done[1u << NR_BITS] = { 0 };

		printf("fraction\t%d\t%d\t%d\t%d\n", f->k, f->p, fraction_resolution(f), 1 << (f->k - f->p));
		for (int l = 0; l < f->k; l++)
			printf("factor\t%c\t%s\n", 'A' + l, project_bits[f->bits[l]]);
		for (int x = f->k - f->p; x < f->k; x++) {
			letters_text(f->gen[x], text);
			printf("generator\t%c=%s\n", 'A' + x, text);
		}
		qsort(words, (size_t)n, sizeof(words[0]), word_cmp_len);
		for (int w = 0; w < n; w++) {
			letters_text(words[w], text);
			strcat(defining, "=");
			strcat(defining, text);
		}
		printf("defining\t%s\n", defining);
		for (int a = 0; a < f->k; a++)
			terms[nterms++] = 1u << a;
		for (int a = 0; a < f->k; a++)
			for (int b = a + 1; b < f->k; b++)
				terms[nterms++] = 1u << a | 1u << b;
		for (int t = 0; t < nterms; t++) {
			unsigned chain[1u << NR_BITS];
			int nc = 0;
			char line[4 * (1u << NR_BITS)] = "";

			if (done[terms[t]])
				continue;
			for (int w = 0; w < n; w++) {
				unsigned alias = terms[t] ^ words[w];

				if (__builtin_popcount(alias) <= 2)
					chain[nc++] = alias;
			}
			qsort(chain, (size_t)nc, sizeof(chain[0]), word_cmp_len);
			for (int c = 0; c < nc; c++) {
				letters_text(chain[c], text);
				if (*line)
					strcat(line, " ");
				strcat(line, text);
				done[chain[c]] = 1;
			}
			letters_text(terms[t], text);
			printf("alias\t%s\t%s\n", text, *line ? line : "-");
		}
	}
}
