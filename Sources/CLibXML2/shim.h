// libxml2's HTML push parser, for blogctl's HTMLStream, and its XML push parser, for feeds: declarations and constants only. The
// library is not linked: BlogctlKit opens it when the first HTML body is rendered
// (LibXML2.swift), so that every other start skips loading it and what Debian's libxml2
// brings (ICU, liblzma). Nothing here may call libxml2.
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

// Declared in parserInternals.h, which would bring ICU's headers (Debian's libxml2 is built
// with ICU) into every module that sees this one, where they clash with Foundation's own ICU.
// libxml2 2.9's prototype; the symbol is exported by every libxml2 since 2.0.
XMLPUBFUN void XMLCALL xmlParserInputShrink(xmlParserInputPtr in);

// The type of each libxml2 function HTMLStream calls, taken from its declaration, so the
// pointers LibXML2.swift looks up cannot disagree with the header.
#define BLOG_FUNCTION(name) typedef __typeof__(&name) blog_##name##_f;
BLOG_FUNCTION(xmlInitParser)
BLOG_FUNCTION(htmlCreatePushParserCtxt)
BLOG_FUNCTION(htmlCtxtUseOptions)
BLOG_FUNCTION(htmlParseChunk)
BLOG_FUNCTION(htmlFreeParserCtxt)
BLOG_FUNCTION(xmlParserInputShrink)
// The XML push parser with SAX2 callbacks, for feeds (FeedXMLStream): events, never a tree.
BLOG_FUNCTION(xmlCreatePushParserCtxt)
BLOG_FUNCTION(xmlCtxtResetPush)
BLOG_FUNCTION(xmlCtxtUseOptions)
BLOG_FUNCTION(xmlParseChunk)
BLOG_FUNCTION(xmlFreeParserCtxt)
BLOG_FUNCTION(xmlStopParser)
#undef BLOG_FUNCTION
