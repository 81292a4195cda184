//===- SourceNames.cpp - the source names knobs are named after -----------===//
#include "approx/Dialect/Approx/IR/SourceNames.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

std::string approx::knobFunctionName(ModuleOp module, StringRef symbol) {
  if (auto names = module->getAttrOfType<DictionaryAttr>(kSourceNamesAttr))
    if (auto name = names.getAs<StringAttr>(symbol))
      return name.str();
  return symbol.str();
}

void approx::recordSourceNames(
    ModuleOp module, const std::map<std::string, std::string> &names,
    const std::map<std::string, std::string> &pieces) {
  std::map<std::string, unsigned> uses;
  for (const auto &[symbol, name] : names)
    ++uses[name];
  auto nameOf = [&](const std::string &symbol) {
    auto it = names.find(symbol);
    return it != names.end() && uses[it->second] == 1 ? it->second : symbol;
  };
  Builder b(module.getContext());
  SmallVector<NamedAttribute> entries;
  for (const auto &entry : names)
    if (std::string name = nameOf(entry.first); name != entry.first)
      entries.push_back(b.getNamedAttr(entry.first, b.getStringAttr(name)));
  for (const auto &[piece, function] : pieces)
    entries.push_back(b.getNamedAttr(piece, b.getStringAttr(nameOf(function))));
  if (entries.empty())
    module->removeAttr(kSourceNamesAttr);
  else
    module->setAttr(kSourceNamesAttr, b.getDictionaryAttr(entries));
}
