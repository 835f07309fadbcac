/* The report's writer (doc.c): each call writes one element to report.md
 * and report.html alike; report.c decides what the sections say. The
 * HTML body is kept in memory until its headings are known, then written
 * after the head and a table of contents linking each h2 and h3. */
#ifndef PJT_DOC_H
#define PJT_DOC_H

#include "pjt-stats.h"

#include <stdio.h>

struct toc_entry {
	int level;               /* 2 or 3: the table of contents' entries */
	char *id, *text;
};
struct doc {
	FILE *md, *html;         /* html: the body, in memory until the contents are known */
	const char *dir;
	const char *md_path, *html_path;
	char *body;              /* html's buffer */
	size_t body_len;
	char **ids;              /* every heading's id, to keep them unique */
	int nids;
	struct toc_entry *toc;
	int ntoc;
};

/* Open DIR/report.md and DIR/report.html; the title is the first line of
 * both (doc_end writes HTML's). */
void doc_begin(struct doc *d, const char *dir, const char *title);
/* report.html's head, TITLE, the contents and the body; both closed */
void doc_end(struct doc *d, const char *title);

void html_escaped(FILE *f, const char *s);
void heading(struct doc *d, int level, const char *text);
void para(struct doc *d, const char *text);
void preformatted(struct doc *d, const char *text);
void bullet(struct doc *d, const char *text);
void table_begin(struct doc *d, char **headers, int n);
void table_row(struct doc *d, char **cells, int n, int header);
void table_end(struct doc *d);
/* a chart's marker line, replaced by embed_charts once it is drawn */
void chart(struct doc *d, const struct chart_plan *plan);

#endif
