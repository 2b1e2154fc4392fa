#include "analysis/TorchVersion.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"

namespace torchlint {

static bool macroInt(clang::Preprocessor &PP, llvm::StringRef Name, int &Out) {
  clang::IdentifierInfo *II = PP.getIdentifierInfo(Name);
  if (!II)
    return false;
  clang::MacroDefinition Def = PP.getMacroDefinition(II);
  const clang::MacroInfo *MI = Def.getMacroInfo();
  if (!MI || MI->getNumTokens() != 1)
    return false;
  const clang::Token &Tok = MI->getReplacementToken(0);
  if (!Tok.isLiteral())
    return false;
  // Tokens of a macro read from a PCH have no literal data: spell them from the source.
  llvm::SmallString<16> Buf;
  bool Invalid = false;
  llvm::StringRef Text = Tok.getLiteralData() ? llvm::StringRef(Tok.getLiteralData(), Tok.getLength())
                                              : PP.getSpelling(Tok, Buf, &Invalid);
  return !Invalid && !Text.getAsInteger(10, Out);
}

TorchVersion readTorchVersion(clang::Preprocessor &PP) {
  TorchVersion V;
  if (macroInt(PP, "TORCH_VERSION_MAJOR", V.Major) && macroInt(PP, "TORCH_VERSION_MINOR", V.Minor))
    V.Known = true;
  return V;
}

} // namespace torchlint
