//===- SourceCheck.cpp - checks of MLIR text before it is parsed ----------===//
#include "approx/Dialect/Approx/IR/SourceCheck.h"
#include "approx/Dialect/Approx/IR/ApproxOps.h"
#include "approx/Support/NestingLimit.h"
#include "approx/Support/ParamHint.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstring>
#include <optional>

using namespace approx;

std::string approx::unknownAttributeMessage(llvm::StringRef name,
                                            llvm::ArrayRef<llvm::StringRef> known) {
  std::string best = names::closestName(
      name.str(), std::vector<std::string>(known.begin(), known.end()));
  std::string m = ("unknown attribute '" + name + "'").str();
  if (!best.empty())
    return m + " (did you mean '" + best + "'?)";
  return m + " (an annotation takes only its own attributes)";
}

namespace {

/// The property names of the annotation op `name`, or none.
std::optional<llvm::ArrayRef<llvm::StringRef>>
annotationProperties(llvm::StringRef name) {
  if (name == DecisionTreeAnnotationOp::getOperationName())
    return DecisionTreeAnnotationOp::getAttributeNames();
  if (name == StaticTransformAnnotationOp::getOperationName())
    return StaticTransformAnnotationOp::getAttributeNames();
  if (name == SafetyContractAnnotationOp::getOperationName())
    return SafetyContractAnnotationOp::getAttributeNames();
  if (name == ConvertToCallAnnotationOp::getOperationName())
    return ConvertToCallAnnotationOp::getAttributeNames();
  return std::nullopt;
}

/// A small scanner over MLIR text: strings, comments, brackets. It gives
/// up (no report) on anything it does not follow.
class Scanner {
public:
  explicit Scanner(llvm::StringRef text) : p(text.begin()), e(text.end()) {}

  const char *p, *e;

  void skipSpace() {
    while (p < e) {
      if (std::isspace(static_cast<unsigned char>(*p)))
        ++p;
      else if (*p == '/' && p + 1 < e && p[1] == '/')
        while (p < e && *p != '\n')
          ++p;
      else
        return;
    }
  }

  /// At '"': the string's contents (escapes kept), p after the quote.
  llvm::StringRef string() {
    const char *begin = ++p;
    while (p < e && *p != '"') {
      if (*p == '\\')
        ++p;
      ++p;
    }
    llvm::StringRef s(begin, std::min(p, e) - begin);
    if (p < e)
      ++p;
    return s;
  }

  /// Skips one attribute value up to a ',' or '}' at its own level.
  bool skipValue() {
    int depth = 0;
    while (p < e) {
      char c = *p;
      if (c == '"') {
        string();
        continue;
      }
      if (c == '-' && p + 1 < e && p[1] == '>') { // a function type's arrow
        p += 2;
        continue;
      }
      if (c == '(' || c == '[' || c == '{' || c == '<')
        ++depth;
      else if (c == ')' || c == ']' || c == '}' || c == '>') {
        if (depth == 0)
          return c == '}';
        --depth;
      } else if (c == ',' && depth == 0)
        return true;
      ++p;
    }
    return false;
  }
};

} // namespace

bool approx::reportUnknownAnnotationKeys(const llvm::SourceMgr &sourceMgr,
                                         llvm::raw_ostream &os) {
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  Scanner s(text);
  bool found = false;
  auto report = [&](const char *at, const std::string &message) {
    sourceMgr.PrintMessage(os, llvm::SMLoc::getFromPointer(at),
                           llvm::SourceMgr::DK_Error, message);
    found = true;
  };
  while (s.p < s.e) {
    s.skipSpace();
    if (s.p >= s.e)
      break;
    if (*s.p != '"') {
      ++s.p;
      continue;
    }
    llvm::StringRef name = s.string();
    std::optional<llvm::ArrayRef<llvm::StringRef>> known =
        annotationProperties(name);
    if (!known)
      continue;
    // "name"() <{key = value, ...}>
    s.skipSpace();
    if (s.p >= s.e || *s.p != '(')
      continue;
    while (s.p < s.e && *s.p != ')')
      ++s.p;
    ++s.p;
    s.skipSpace();
    if (s.p + 1 >= s.e || s.p[0] != '<' || s.p[1] != '{')
      continue;
    s.p += 2;
    while (true) {
      s.skipSpace();
      if (s.p >= s.e || *s.p == '}')
        break;
      const char *keyAt = s.p;
      llvm::StringRef key;
      if (*s.p == '"') {
        key = s.string();
      } else {
        const char *begin = s.p;
        while (s.p < s.e && (std::isalnum(static_cast<unsigned char>(*s.p)) ||
                             *s.p == '_' || *s.p == '.' || *s.p == '$'))
          ++s.p;
        key = llvm::StringRef(begin, s.p - begin);
      }
      if (key.empty())
        break;
      if (!llvm::is_contained(*known, key))
        report(keyAt, "'" + name.str() + "' op " +
                          unknownAttributeMessage(key, *known) +
                          " (MLIR's generic form would drop it)");
      s.skipSpace();
      if (s.p < s.e && *s.p == '=') {
        ++s.p;
        if (!s.skipValue())
          break;
      }
      if (s.p < s.e && *s.p == ',')
        ++s.p;
    }
  }
  return found;
}

bool approx::reportNonStringIteratorTypes(const llvm::SourceMgr &sourceMgr,
                                          llvm::raw_ostream &os) {
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  bool found = false;
  for (size_t at = text.find("linalg.generic"); at != llvm::StringRef::npos;
       at = text.find("linalg.generic", at + 1)) {
    // The custom form: `linalg.generic {... iterator_types = [...] ...}`
    // (the generic form, "linalg.generic"(...) <{...}>, converts its
    // properties with their types checked).
    if (at > 0 && text[at - 1] == '"')
      continue;
    Scanner s(text.drop_front(at + strlen("linalg.generic")));
    s.skipSpace();
    if (s.p >= s.e || *s.p != '{')
      continue;
    const char *dictEnd = s.p;
    {
      Scanner d = s;
      ++d.p;
      while (d.p < d.e && d.skipValue() && d.p < d.e && *d.p == ',')
        ++d.p;
      dictEnd = d.p;
    }
    llvm::StringRef dict(s.p, dictEnd - s.p);
    size_t key = dict.find("iterator_types");
    if (key == llvm::StringRef::npos)
      continue;
    Scanner v(dict.drop_front(key + strlen("iterator_types")));
    v.skipSpace();
    if (v.p >= v.e || *v.p != '=')
      continue;
    ++v.p;
    v.skipSpace();
    if (v.p >= v.e || *v.p != '[')
      continue;
    ++v.p;
    while (true) {
      v.skipSpace();
      if (v.p >= v.e || *v.p == ']')
        break;
      if (*v.p != '"') {
        sourceMgr.PrintMessage(
            os, llvm::SMLoc::getFromPointer(v.p), llvm::SourceMgr::DK_Error,
            "'linalg.generic' iterator_types takes strings (\"parallel\", "
            "\"reduction\") in the custom form (MLIR 22's parser reads any "
            "other element as a string, out of bounds)");
        found = true;
        break;
      }
      v.string();
      v.skipSpace();
      if (v.p < v.e && *v.p == ',')
        ++v.p;
      else
        break;
    }
  }
  return found;
}

bool approx::reportSourceProblems(const llvm::SourceMgr &sourceMgr,
                                  llvm::raw_ostream &os) {
  return reportExcessiveNesting(sourceMgr, os) ||
         reportUnknownAnnotationKeys(sourceMgr, os) ||
         reportNonStringIteratorTypes(sourceMgr, os);
}
