//===- Annotations.cpp - `// @approx:` comment annotations ----------------===//
#include "approx/Frontend/Annotations.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace approx {

namespace {

constexpr StringLiteral kMarker = "@approx:";

/// The keys each kind accepts, and which of them are required.
struct KeySpec {
  StringRef name;
  AnnotationValue::Kind kind;
  bool required;
};

constexpr KeySpec kDecisionTreeKeys[] = {
    {"transform_type", AnnotationValue::Identifier, true},
    {"state_indices", AnnotationValue::List, false},
    {"state_function", AnnotationValue::Identifier, false},
    {"thresholds", AnnotationValue::List, true},
    {"thresholds_lower", AnnotationValue::List, false},
    {"thresholds_upper", AnnotationValue::List, false},
    {"decisions", AnnotationValue::List, true},
    {"decision_values", AnnotationValue::List, false},
    {"knob_name", AnnotationValue::Identifier, false},
    {"callee", AnnotationValue::Identifier, false},
};
constexpr KeySpec kStaticKeys[] = {
    {"transform_type", AnnotationValue::Identifier, true},
    {"knob_val", AnnotationValue::Integer, true},
    {"decision_values", AnnotationValue::List, false},
    {"knob_name", AnnotationValue::Identifier, false},
    {"callee", AnnotationValue::Identifier, false},
};
constexpr KeySpec kContractKeys[] = {
    {"checker", AnnotationValue::Identifier, true},
    {"recover", AnnotationValue::Identifier, true},
    {"knob_name", AnnotationValue::Identifier, false},
};

ArrayRef<KeySpec> keysOf(SourceAnnotation::Kind kind) {
  switch (kind) {
  case SourceAnnotation::DecisionTree:
    return kDecisionTreeKeys;
  case SourceAnnotation::StaticTransform:
    return kStaticKeys;
  case SourceAnnotation::SafetyContract:
    return kContractKeys;
  }
  return {};
}

StringRef kindName(AnnotationValue::Kind k) {
  switch (k) {
  case AnnotationValue::Identifier:
    return "a name";
  case AnnotationValue::Integer:
    return "an integer";
  case AnnotationValue::List:
    return "a list of integers like [1, 2]";
  }
  return "";
}

bool isIdentChar(char c) { return isAlnum(c) || c == '_'; }

/// A cursor over the text of one comment line.
struct Cursor {
  StringRef rest;
  unsigned line, col;

  void skipSpace() {
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) {
      rest = rest.drop_front();
      ++col;
    }
  }
  void advance(size_t n) {
    rest = rest.drop_front(n);
    col += n;
  }
  SourcePos pos() const { return {line, col}; }
};

struct Parser {
  std::vector<AnnotationError> &errors;

  void error(SourcePos pos, const Twine &msg) {
    errors.push_back({pos, msg.str()});
  }

  /// The integer at the cursor, or nullopt when there is none. Every
  /// annotation value is a 32-bit integer: a larger one is an error (set in
  /// `tooLarge`), never truncated.
  std::optional<int64_t> parseInt(Cursor &c, bool &tooLarge) {
    size_t n = 0;
    if (n < c.rest.size() && (c.rest[n] == '-' || c.rest[n] == '+'))
      ++n;
    size_t digits = n;
    while (n < c.rest.size() && isDigit(c.rest[n]))
      ++n;
    if (n == digits)
      return std::nullopt;
    StringRef text = c.rest.take_front(n);
    int64_t v;
    if (text.getAsInteger(10, v) || v < INT32_MIN || v > INT32_MAX) {
      error(c.pos(), "integer " + text + " does not fit in 32 bits");
      tooLarge = true;
      return std::nullopt;
    }
    c.advance(n);
    return v;
  }

  /// value := identifier | integer | '[' (integer (',' integer)*)? ']'
  std::optional<AnnotationValue> parseValue(Cursor &c) {
    AnnotationValue v;
    c.skipSpace();
    v.pos = c.pos();
    if (c.rest.starts_with("[")) {
      c.advance(1);
      v.kind = AnnotationValue::List;
      c.skipSpace();
      if (c.rest.starts_with("]")) {
        c.advance(1);
        return v;
      }
      for (;;) {
        c.skipSpace();
        bool tooLarge = false;
        std::optional<int64_t> x = parseInt(c, tooLarge);
        if (!x) {
          if (!tooLarge)
            error(c.pos(), "malformed list: expected an integer");
          return std::nullopt;
        }
        v.list.push_back(*x);
        c.skipSpace();
        if (c.rest.starts_with(",")) {
          c.advance(1);
          continue;
        }
        if (c.rest.starts_with("]")) {
          c.advance(1);
          return v;
        }
        error(c.pos(), "malformed list: expected ',' or ']'");
        return std::nullopt;
      }
    }
    bool tooLarge = false;
    if (std::optional<int64_t> x = parseInt(c, tooLarge)) {
      v.kind = AnnotationValue::Integer;
      v.integer = *x;
      return v;
    }
    if (tooLarge)
      return std::nullopt;
    size_t n = 0;
    while (n < c.rest.size() && isIdentChar(c.rest[n]))
      ++n;
    if (n == 0 || isDigit(c.rest.front())) {
      error(c.pos(), "expected a value (a name, an integer or a list)");
      return std::nullopt;
    }
    v.kind = AnnotationValue::Identifier;
    v.identifier = c.rest.take_front(n).str();
    c.advance(n);
    return v;
  }

  /// One `key: value` or `key=value` entry into `ann`.
  bool parseEntry(Cursor &c, char sep, SourceAnnotation &ann) {
    c.skipSpace();
    SourcePos keyPos = c.pos();
    size_t n = 0;
    while (n < c.rest.size() && isIdentChar(c.rest[n]))
      ++n;
    if (n == 0) {
      error(keyPos, "expected a key");
      return false;
    }
    std::string key = c.rest.take_front(n).str();
    c.advance(n);
    c.skipSpace();
    if (!c.rest.starts_with(StringRef(&sep, 1))) {
      error(c.pos(), Twine("expected '") + StringRef(&sep, 1) + "' after '" +
                         key + "'");
      return false;
    }
    c.advance(1);
    std::optional<AnnotationValue> value = parseValue(c);
    if (!value)
      return false;
    const KeySpec *spec = nullptr;
    for (const KeySpec &s : keysOf(ann.kind))
      if (s.name == key)
        spec = &s;
    if (!spec) {
      std::string known;
      for (const KeySpec &s : keysOf(ann.kind))
        known += (known.empty() ? "" : ", ") + s.name.str();
      error(keyPos, "unknown key '" + key + "' (expected one of: " + known +
                        ")");
      return false;
    }
    if (value->kind != spec->kind) {
      error(value->pos, "'" + key + "' takes " + kindName(spec->kind));
      return false;
    }
    if (!ann.entries.emplace(key, *value).second) {
      error(keyPos, "duplicate key '" + key + "'");
      return false;
    }
    return true;
  }

  void checkRequired(const SourceAnnotation &ann) {
    for (const KeySpec &s : keysOf(ann.kind))
      if (s.required && !ann.get(s.name))
        error(ann.pos, "annotation lacks required key '" + s.name + "'");
  }
};

/// The text after `//` of a line comment, or nullopt.
std::optional<StringRef> commentBody(StringRef line, unsigned &col) {
  size_t i = line.find_first_not_of(" \t");
  if (i == StringRef::npos || !line.substr(i).starts_with("//"))
    return std::nullopt;
  col = i + 3;
  return line.substr(i + 2);
}

} // namespace

std::vector<SourceAnnotation>
parseAnnotations(StringRef text, std::vector<AnnotationError> &errors) {
  std::vector<SourceAnnotation> out;
  Parser p{errors};
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (unsigned i = 0; i < lines.size(); ++i) {
    unsigned bodyCol;
    std::optional<StringRef> body = commentBody(lines[i], bodyCol);
    if (!body)
      continue;
    size_t at = body->find(kMarker);
    if (at == StringRef::npos || !body->take_front(at).trim().empty())
      continue;
    Cursor c{body->drop_front(at + kMarker.size()), i + 1,
             unsigned(bodyCol + at + kMarker.size())};
    SourceAnnotation ann;
    ann.pos = {i + 1, unsigned(bodyCol + at)};
    ann.lastLine = i + 1;

    size_t n = 0;
    while (n < c.rest.size() && isIdentChar(c.rest[n]))
      ++n;
    StringRef kind = c.rest.take_front(n);
    c.advance(n);
    std::optional<std::string> shorthand;
    if (kind == "decision_tree") {
      ann.kind = SourceAnnotation::DecisionTree;
    } else if (kind == "static_transform") {
      ann.kind = SourceAnnotation::StaticTransform;
    } else if (kind == "safety_contract") {
      ann.kind = SourceAnnotation::SafetyContract;
    } else if (approx::symbolizeTransformKind(kind)) {
      // `@approx:<transform> ...`: static with knob_val, else a tree.
      shorthand = kind.str();
      bool isStatic = body->contains("knob_val");
      ann.kind = isStatic ? SourceAnnotation::StaticTransform
                          : SourceAnnotation::DecisionTree;
    } else {
      p.error(ann.pos, "unknown annotation '@approx:" + kind +
                           "' (expected decision_tree, static_transform, "
                           "safety_contract or a transform kind: " +
                           approx::transformKindList() + ")");
      continue;
    }
    if (shorthand) {
      AnnotationValue v;
      v.identifier = *shorthand;
      v.pos = ann.pos;
      ann.entries.emplace("transform_type", v);
    }

    c.skipSpace();
    bool ok = true;
    if (c.rest.starts_with("{")) {
      // Block form: one entry per following comment line, up to `}`.
      c.advance(1);
      c.skipSpace();
      if (!c.rest.trim().empty()) {
        p.error(c.pos(), "unexpected text after '{'");
        ok = false;
      }
      bool closed = false;
      while (++i < lines.size()) {
        unsigned col;
        std::optional<StringRef> line = commentBody(lines[i], col);
        if (!line)
          break;
        ann.lastLine = i + 1;
        Cursor lc{*line, i + 1, col};
        lc.skipSpace();
        if (lc.rest.starts_with("}")) {
          closed = true;
          break;
        }
        if (lc.rest.trim().empty())
          continue;
        ok &= p.parseEntry(lc, ':', ann);
        lc.skipSpace();
        if (ok && !lc.rest.trim().empty()) {
          p.error(lc.pos(), "unexpected text after the value");
          ok = false;
        }
      }
      if (!closed) {
        p.error(ann.pos, "unterminated annotation block: expected '// }'");
        ok = false;
        --i;
      }
    } else {
      // Single-line form: key=value entries.
      while (ok && !c.rest.trim().empty())
        ok &= p.parseEntry(c, '=', ann);
    }
    if (!ok)
      continue;
    p.checkRequired(ann);
    out.push_back(std::move(ann));
  }
  return out;
}

std::vector<AnnotationError> findNearMisses(StringRef text) {
  std::vector<AnnotationError> out;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  bool inBlockComment = false;
  for (unsigned l = 0; l < lines.size(); ++l) {
    StringRef line = lines[l];
    // Where the line comment starts (outside strings and block comments),
    // and which bytes are inside a block comment.
    size_t lineComment = StringRef::npos;
    SmallVector<bool> inBlock(line.size(), false);
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      if (inBlockComment) {
        inBlock[i] = true;
        if (line.substr(i).starts_with("*/"))
          inBlockComment = false, inBlock[i + 1] = true, ++i;
        continue;
      }
      char ch = line[i];
      if (quote) {
        if (ch == '\\')
          ++i;
        else if (ch == quote)
          quote = 0;
        continue;
      }
      if (ch == '"' || ch == '\'') {
        quote = ch;
      } else if (line.substr(i).starts_with("//")) {
        lineComment = i;
        break;
      } else if (line.substr(i).starts_with("/*")) {
        inBlockComment = true;
        inBlock[i] = inBlock[i + 1] = true;
        ++i;
      }
    }
    std::string lower = line.lower();
    for (size_t at = lower.find("@approx"); at != std::string::npos;
         at = lower.find("@approx", at + 1)) {
      size_t colon = line.find_first_not_of(" \t", at + 7);
      if (colon == StringRef::npos || line[colon] != ':')
        continue; // not a marker (e.g. an address)
      SourcePos pos{l + 1, unsigned(at + 1)};
      StringRef marker = line.slice(at, colon + 1);
      bool inLineComment = lineComment != StringRef::npos && at > lineComment;
      if (at < inBlock.size() && inBlock[at]) {
        out.push_back({pos, "'" + marker.str() + "' in a /* */ comment is not "
                            "an annotation: annotations are '// @approx:' "
                            "line comments"});
      } else if (!inLineComment) {
        continue; // code or a string literal
      } else if (marker != kMarker) {
        out.push_back({pos, "'" + marker.str() + "' is not an annotation: "
                            "annotations start with '// @approx:' exactly "
                            "(lower case, no space before ':')"});
      } else if (!line.take_front(lineComment).trim().empty()) {
        out.push_back({pos, "an annotation after code on the same line is "
                            "not taken: put '// @approx:' on its own line "
                            "before the function or loop"});
      } else if (!line.slice(lineComment + 2, at).trim().empty()) {
        out.push_back({pos, "'@approx:' not at the start of its comment is "
                            "not taken: start the comment with it"});
      }
    }
  }
  return out;
}

} // namespace approx
