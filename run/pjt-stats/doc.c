/* The report's writer: report.md and report.html from the same calls
 * (doc.h). The HTML embeds the PNG charts as data URIs, so it opens with
 * no server. */
#include "doc.h"

#include <stdlib.h>
#include <string.h>

#define CHART_MARKER "<!-- pjt-chart "

void html_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Markdown table cells must not contain a bare '|'. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* A heading's anchor: its words in lower case joined by '-', "-2", "-3"...
 * when an earlier heading has it ("topology-2x2x1" in two sections). */
static char *heading_id(struct doc *d, const char *text)
{
	char *base = xmalloc(strlen(text) + 1), *out = base, *id;
	int dash = 0;

	for (const char *p = text; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z')) {
			if (dash && out > base)
				*out++ = '-';
			*out++ = *p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p;
			dash = 0;
		} else {
			dash = 1;
		}
	}
	*out = '\0';
	id = xstrdup(*base ? base : "section");
	for (int n = 2;; n++) {
		int seen = 0;

		for (int i = 0; i < d->nids && !seen; i++)
			seen = !strcmp(d->ids[i], id);
		if (!seen)
			break;
		free(id);
		id = xasprintf("%s-%d", *base ? base : "section", n);
	}
	free(base);
	d->ids = xrealloc(d->ids, (d->nids + 1) * sizeof(char *));
	d->ids[d->nids++] = id;
	return id;
}

void heading(struct doc *d, int level, const char *text)
{
	const char *id = heading_id(d, text);

	fprintf(d->md, "\n%.*s %s\n\n", level, "######", text);
	fprintf(d->html, "<h%d id=\"%s\">", level, id);
	html_escaped(d->html, text);
	fprintf(d->html, "</h%d>\n", level);
	if (level <= 3) {
		d->toc = xrealloc(d->toc, (d->ntoc + 1) * sizeof(*d->toc));
		d->toc[d->ntoc++] = (struct toc_entry){ level, (char *)id, xstrdup(text) };
	}
}

/* The HTML's table of contents: the sections (h2) and their parts (h3),
 * each a link to its heading's anchor. */
static void write_toc(FILE *f, const struct doc *d)
{
	int open3 = 0, open2 = 0;

	fputs("<nav id=\"contents\"><h2>Contents</h2>\n<ul>\n", f);
	for (int i = 0; i < d->ntoc; i++) {
		const struct toc_entry *e = &d->toc[i];

		if (e->level == 2) {
			if (open3)
				fputs("</li></ul>", f);
			if (open2)
				fputs("</li>\n", f);
			open3 = 0;
			open2 = 1;
		} else {
			fputs(open3 ? "</li>\n" : "\n<ul>", f);
			open3 = 1;
		}
		fprintf(f, "<li><a href=\"#%s\">", e->id);
		html_escaped(f, e->text);
		fputs("</a>", f);
	}
	if (open3)
		fputs("</li></ul>", f);
	if (open2)
		fputs("</li>", f);
	fputs("\n</ul></nav>\n", f);
}

/* A paragraph. In Markdown a line that starts "* ", "- ", "+ ", "#" or
 * "1. " would be a list item or a heading: its first character escaped. */
void para(struct doc *d, const char *text)
{
	size_t digits = strspn(text, "0123456789");

	if (((text[0] == '*' || text[0] == '-' || text[0] == '+') && text[1] == ' ') || text[0] == '#')
		fprintf(d->md, "\\%s\n\n", text);
	else if (digits && (text[digits] == '.' || text[digits] == ')') && text[digits + 1] == ' ')
		fprintf(d->md, "%.*s\\%s\n\n", (int)digits, text, text + digits);
	else
		fprintf(d->md, "%s\n\n", text);
	fputs("<p>", d->html);
	html_escaped(d->html, text);
	fputs("</p>\n", d->html);
}

void preformatted(struct doc *d, const char *text)
{
	fprintf(d->md, "```\n%s%s```\n\n", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	fputs("<pre>", d->html);
	html_escaped(d->html, text);
	fputs("</pre>\n", d->html);
}

void bullet(struct doc *d, const char *text)
{
	fprintf(d->md, "- %s\n", text);
	fputs("<ul><li>", d->html);
	html_escaped(d->html, text);
	fputs("</li></ul>\n", d->html);
}

void table_row(struct doc *d, char **cells, int n, int header)
{
	fputs("|", d->md);
	fputs("<tr>", d->html);
	for (int i = 0; i < n; i++) {
		fputc(' ', d->md);
		md_cell(d->md, cells[i]);
		fputs(" |", d->md);
		fputs(header ? "<th>" : "<td>", d->html);
		html_escaped(d->html, cells[i]);
		fputs(header ? "</th>" : "</td>", d->html);
	}
	fputs("\n", d->md);
	fputs("</tr>\n", d->html);
	if (header) {
		fputs("|", d->md);
		for (int i = 0; i < n; i++)
			fputs(i ? "---:|" : "---|", d->md);
		fputs("\n", d->md);
	}
}

void table_begin(struct doc *d, char **headers, int n)
{
	fputs("\n", d->md);
	fputs("<table>\n", d->html);
	table_row(d, headers, n, 1);
}

void table_end(struct doc *d)
{
	fputs("\n", d->md);
	fputs("</table>\n", d->html);
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		fputc(digits[v >> 18 & 63], f);
		fputc(digits[v >> 12 & 63], f);
		fputc(i + 1 < n ? digits[v >> 6 & 63] : '=', f);
		fputc(i + 2 < n ? digits[v & 63] : '=', f);
	}
}

/* A marker line, replaced by embed_charts once the charts are drawn. */
void chart(struct doc *d, const struct chart_plan *plan)
{
	fprintf(d->md, CHART_MARKER "%s\t%s -->\n\n", plan->name, plan->caption);
	fprintf(d->html, CHART_MARKER "%s\t%s -->\n", plan->name, plan->caption);
}

static void embed_one(FILE *out, const char *dir, const char *name, const char *caption, int html)
{
	char *png = xasprintf("%s/charts/%s.png", dir, name);
	size_t len;
	char *data = read_whole_file(png, &len);
	/* the alt text: the caption's first words, not the caption again */
	char *alt = xasprintf("Chart: %.*s", (int)strcspn(caption, ":("), caption);

	for (size_t n = strlen(alt); n && alt[n - 1] == ' '; n--)
		alt[n - 1] = '\0';
	if (!data) {
		fprintf(out, html ? "<p>Chart %s was not rendered (see charts/%s.log): " : "Chart %s was not rendered (see charts/%s.log): ",
			name, name);
		if (html)
			html_escaped(out, caption);
		else
			fputs(caption, out);
		fputs(html ? ".</p>\n" : ".\n", out);
	} else if (!html) {
		fprintf(out, "![%s](charts/%s.png)\n\n*%s* ([SVG](charts/%s.svg))\n", alt, name,
			caption, name);
	} else {
		fputs("<figure><img alt=\"", out);
		html_escaped(out, alt);
		fputs("\" src=\"data:image/png;base64,", out);
		base64(out, (const unsigned char *)data, len);
		fputs("\"><figcaption>", out);
		html_escaped(out, caption);
		fprintf(out, " (<a href=\"charts/%s.svg\">SVG</a>)</figcaption></figure>\n", name);
	}
	free(alt);
	free(data);
	free(png);
}

static void embed_file(const char *dir, const char *file, int html)
{
	char *path = xasprintf("%s/%s", dir, file);
	char *text = read_whole_file(path, NULL), *line, *next;
	FILE *out;

	if (!text)
		die_input("pjt-stats: %s: no such file (run pjt-stats --report first)", path);
	out = open_output(path);
	for (line = text; *line; line = next) {
		char *nl = strchr(line, '\n'), *tab;

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		if (!strncmp(line, CHART_MARKER, strlen(CHART_MARKER)) &&
		    (tab = strchr(line, '\t')) && strlen(tab) >= 4 &&
		    !strcmp(line + strlen(line) - 4, " -->")) {
			*tab = '\0';
			line[strlen(line + 0)] = '\0';
			tab[1 + strlen(tab + 1) - 4] = '\0';
			embed_one(out, dir, line + strlen(CHART_MARKER), tab + 1, html);
		} else {
			fprintf(out, "%s%s", line, nl ? "\n" : "");
		}
	}
	close_output(out, path);
	free(text);
	free(path);
}

int embed_charts(const char *results_dir)
{
	embed_file(results_dir, "report.md", 0);
	embed_file(results_dir, "report.html", 1);
	return 0;
}

void doc_begin(struct doc *d, const char *dir, const char *title)
{
	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->md_path = xasprintf("%s/report.md", dir);
	d->html_path = xasprintf("%s/report.html", dir);
	d->md = open_output(d->md_path);
	d->html = open_memstream(&d->body, &d->body_len);
	if (!d->html)
		die_input("pjt-stats: %s: no memory for the report", d->html_path);
	fprintf(d->md, "# %s\n", title);
}

void doc_end(struct doc *d, const char *title)
{
	FILE *html = open_output(d->html_path);

	fclose(d->html);
	/* the head, the title, the contents (every heading's anchor now known), the body */
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>", html);
	html_escaped(html, title);
	fputs("</title><style>body{font-family:sans-serif;max-width:84em;margin:1em auto;padding:0 1em}"
	      "table{border-collapse:collapse;margin:0.5em 0 1em}td,th{border:1px solid #bbb;padding:0.2em 0.5em;font-size:90%}"
	      "td{text-align:right}td:first-child{text-align:left}pre{background:#f4f4f4;padding:0.5em;overflow-x:auto}"
	      "figure{margin:1em 0}img{max-width:100%}figcaption{font-style:italic}ul{margin:0.2em 0}"
	      "nav#contents{font-size:90%}nav#contents>ul{columns:2}nav#contents>ul>li{break-inside:avoid}nav#contents h2{font-size:110%}</style></head><body>\n",
	      html);
	fputs("<h1>", html);
	html_escaped(html, title);
	fputs("</h1>\n", html);
	write_toc(html, d);
	fwrite(d->body, 1, d->body_len, html);
	fputs("</body></html>\n", html);
	close_output(d->md, d->md_path);
	close_output(html, d->html_path);
	free(d->body);
	for (int i = 0; i < d->ntoc; i++)
		free(d->toc[i].text);
	free(d->toc);
	for (int i = 0; i < d->nids; i++)
		free(d->ids[i]);
	free(d->ids);
	free((char *)d->md_path);
	free((char *)d->html_path);
}
