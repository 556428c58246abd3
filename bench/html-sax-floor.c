// libxml2's HTML push parser alone, as blogctl feeds it (HTMLStream): the same options, pieces
// of 64 KiB cut just before a `<`, the input shrunk between pieces, and SAX callbacks that do
// nothing. What rendering a shape cannot go below with this libxml2, whatever the renderer
// does (bench/render-shapes prints it beside blogctl's time).
// Usage: html-sax-floor FILE (prints the number of events)
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long events;
static void start(void *user, const xmlChar *name, const xmlChar **attributes) { events++; }
static void end(void *user, const xmlChar *name) { events++; }
static void text(void *user, const xmlChar *bytes, int count) { events++; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: html-sax-floor FILE\n"); return 64; }
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 66; }
    static char piece[1 << 16];
    static char carry[1 << 17];
    size_t held = 0;
    htmlSAXHandler handler;
    memset(&handler, 0, sizeof handler);
    handler.startElement = start;
    handler.endElement = end;
    handler.characters = text;
    handler.ignorableWhitespace = text;
    htmlParserCtxtPtr context = htmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL, XML_CHAR_ENCODING_UTF8);
    htmlCtxtUseOptions(context, HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    size_t count;
    while ((count = fread(piece, 1, sizeof piece, file)) > 0) {
        memcpy(carry + held, piece, count);
        held += count;
        // Up to the last `<` goes to the parser; the rest waits for the next piece.
        size_t cut = held;
        while (cut > 0 && carry[cut - 1] != '<') cut--;
        if (cut > 1) {
            cut--;
            htmlParseChunk(context, carry, (int)cut, 0);
            xmlParserInputShrink(context->input);
            memmove(carry, carry + cut, held - cut);
            held -= cut;
        } else if (held >= sizeof piece) {
            htmlParseChunk(context, carry, (int)held, 0);
            held = 0;
        }
    }
    htmlParseChunk(context, carry, (int)held, 1);
    printf("%ld\n", events);
    htmlFreeParserCtxt(context);
    return 0;
}
