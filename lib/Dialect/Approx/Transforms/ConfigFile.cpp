//===- ConfigFile.cpp - a configuration file read for the passes ----------===//
#include "ConfigFile.h"
#include "approx/Support/BoundedRead.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace approx {

Location ConfigFile::locate(MLIRContext *ctx, StringRef key) const {
  size_t at = text.find(("\"" + key + "\"").str());
  unsigned line = 1, col = 1;
  for (size_t i = 0; at != std::string::npos && i < at; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return FileLineColLoc::get(ctx, path, line, col);
}

FailureOr<ConfigFile> readConfig(MLIRContext *ctx, StringRef path) {
  ConfigFile cfg;
  cfg.path = path.str();
  Location fileLoc = FileLineColLoc::get(ctx, path, 1, 1);
  auto buf = readBounded(path);
  if (!buf) {
    // A special file (/dev/zero) is not located in: the diagnostic handler
    // would read it again, without a limit.
    if (llvm::sys::fs::exists(path) && !llvm::sys::fs::is_regular_file(path))
      return emitError(UnknownLoc::get(ctx), "cannot read configuration '")
             << path << "': " << llvm::toString(buf.takeError());
    return emitError(fileLoc, "cannot read configuration: ")
           << llvm::toString(buf.takeError());
  }
  cfg.text = (*buf)->getBuffer().str();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(cfg.text);
  if (!json)
    return emitError(fileLoc, "invalid JSON: ")
           << llvm::toString(json.takeError());
  const llvm::json::Object *obj = json->getAsObject();
  if (!obj)
    return emitError(fileLoc, "a configuration must be a JSON object mapping "
                              "parameter names to integers");
  for (const auto &[key, value] : *obj) {
    std::optional<int64_t> v = value.getAsInteger();
    if (!v)
      return emitError(cfg.locate(ctx, key), "value of '")
             << key.str() << "' must be an integer";
    if (*v < INT32_MIN || *v > INT32_MAX)
      return emitError(cfg.locate(ctx, key), "value of '")
             << key.str() << "' does not fit in 32 bits";
    cfg.values[key.str()] = *v;
  }
  return cfg;
}

} // namespace approx
