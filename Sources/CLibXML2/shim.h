// libxml2's HTML parser and tree API, for blogctl's HTMLRenderer.
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
