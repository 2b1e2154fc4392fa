#include "analysis/HostWidening.h"
#include "analysis/DeviceProvenance.h"
#include "analysis/HotCode.h"
#include "analysis/NnModules.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TensorDtype.h"
#include "analysis/TorchTypes.h"
#include "core/AstWalk.h"
#include "core/Recovery.h"
#include "utils/ExprStrip.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace torchlint {

namespace {
/// Methods that keep values and only change the view (shape, strides): the same on either side
/// of the copy.
bool isViewStep(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("permute", "unsqueeze", "squeeze", "view", "reshape", "flatten", "transpose", true)
      .Cases("contiguous", "clone", "narrow", "slice", "select", "t", true)
      .Default(false);
}
/// Elementwise arithmetic with a scalar: IEEE-rounded the same on the CPU and the GPU.
bool isScalarArith(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N).Cases("div", "mul", "sub", "add", "div_", "mul_", "sub_", "add_", true).Default(false);
}
/// Methods whose result has the dtype and the device of their object (for origins): the views,
/// indexing, detach().
bool keepsDtypeAndDevice(llvm::StringRef N) {
  return isViewStep(N) || N == "index" || N == "detach" || N == "expand" || N == "repeat";
}

/// `.to(device...)`: a copy, not a conversion (arguments as written: TensorOptions(kCUDA) too).
bool copiesToDevice(const CXXMemberCallExpr *Call) {
  if (!Call || Call->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return false;
  const Expr *E = Call->getArg(0);
  while (E) {
    E = E->IgnoreImplicit();
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (CE && !isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid() && CE->getNumArgs() >= 1) {
      E = CE->getArg(0);
      continue;
    }
    break;
  }
  return E && isDeviceLikeType(E->getType());
}

bool userFunction(const FunctionDecl *FD, const ASTContext &Ctx) {
  return FD && !isTorchDecl(FD) && !isLibraryLocation(Ctx.getSourceManager(), FD->getLocation()) &&
         isTensorType(FD->getReturnType().getNonReferenceType());
}

const FieldDecl *fieldOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

bool holdsTensors(const FieldDecl *FD) {
  return FD && (isTensorContainerType(FD->getType()) || isTensorMapType(FD->getType()));
}

struct OriginWalker {
  ASTContext &Ctx;
  std::vector<TensorOrigin> &Out;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;

  void add(TensorOrigin O) {
    for (const TensorOrigin &P : Out)
      if (P.K == O.K && P.K != TensorOrigin::Widened && P.Callee == O.Callee && P.Field == O.Field &&
          P.Element == O.Element)
        return;
    Out.push_back(std::move(O));
  }
  void unknown() { add(TensorOrigin{}); }

  /// `t.mean()`, `t.std()` (no argument: one value) of a tensor whose origins are all widening
  /// chains written here.
  bool hostReductionOfWidened(const Expr *E, unsigned Depth) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(stripCopies(E));
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getDeclName().isIdentifier() || !isTorchDecl(MD) || !MC->getImplicitObjectArgument() ||
        !llvm::is_contained({"mean", "std", "var", "max", "min", "sum", "norm", "amax", "amin"}, MD->getName()))
      return false;
    for (const Expr *A : MC->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        return false;
    std::vector<TensorOrigin> Of;
    OriginWalker W{Ctx, Of, Seen};
    W.walk(MC->getImplicitObjectArgument(), Depth + 1);
    return !Of.empty() && llvm::all_of(Of, [](const TensorOrigin &O) { return O.K == TensorOrigin::Widened; });
  }

  void walk(const Expr *E, unsigned Depth) {
    if (!E || Depth > 16)
      return unknown();
    E = stripCopies(E);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      walk(C->getTrueExpr(), Depth + 1);
      walk(C->getFalseExpr(), Depth + 1);
      return;
    }
    TensorOrigin O;
    if (walkWideningChain(E, Ctx, O.Chain)) {
      O.K = TensorOrigin::Widened;
      Out.push_back(std::move(O));
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD))
        return unknown();
      // The only write that reaches this read decides (`img = img.to(kFloat32); img = img / 255;
      // return {img, label};`: the earlier uint8 values are not what is read).
      if (const Expr *Last = onlyReachingAssignment(DRE, VD, Ctx))
        return walk(Last, Depth + 1);
      if (!Seen.insert(VD).second)
        return; // a value of the local made from itself (`t = t.contiguous()`): its other values decide
      const VarValues &V = valuesOf(VD, Ctx);
      if (!V.Known)
        return unknown();
      bool Any = false;
      for (const Expr *Val : V.Values) {
        Any = true;
        walk(Val, Depth + 1);
      }
      if (!Any)
        unknown(); // only default-constructed: no tensor of its own
      return;
    }
    if (const FieldDecl *FD = fieldOf(E); FD && isTensorType(FD->getType())) {
      O.K = TensorOrigin::FieldRead;
      O.Field = FD;
      return add(O);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2) {
        const Expr *Base = Op->getArg(0);
        if (const FieldDecl *FD = fieldOf(Base); holdsTensors(FD)) {
          O.K = TensorOrigin::FieldRead; // an element of a field holding tensors
          O.Field = FD;
          return add(O);
        }
        if (isTensorType(Base->getType()))
          return walk(Base, Depth + 1); // t[i]: a view of t
      }
      // `t / 255`, `(t - t.mean()) / t.std()`: arithmetic with a scalar, or with a full reduction
      // of tensors widened on the host (a host scalar of t's dtype), keeps t's dtype and device.
      OverloadedOperatorKind K = Op->getOperator();
      if (Op->getNumArgs() == 2 && (K == OO_Slash || K == OO_Star || K == OO_Minus || K == OO_Plus) &&
          isTensorType(Op->getArg(0)->getType()) &&
          (!isTensorType(stripCopies(Op->getArg(1))->getType()) || hostReductionOfWidened(Op->getArg(1), Depth)))
        return walk(Op->getArg(0), Depth + 1);
      return unknown();
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj)
        return unknown();
      if (MD->getDeclName().isIdentifier() && isTensorType(Obj->getType()) && isTorchDecl(MD)) {
        if (keepsDtypeAndDevice(MD->getName()))
          return walk(Obj, Depth + 1);
        return unknown();
      }
      if (const FieldDecl *FD = fieldOf(Obj); holdsTensors(FD) && MD->getDeclName().isIdentifier() &&
                                              llvm::is_contained({"at", "back", "front"}, MD->getName())) {
        O.K = TensorOrigin::FieldRead;
        O.Field = FD;
        return add(O);
      }
      if (MD->isVirtual()) {
        const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParenImpCasts());
        if (!ME || !ME->hasQualifier())
          return unknown(); // dispatched: an override may return anything
      }
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!userFunction(FD, Ctx))
        return unknown();
      O.K = TensorOrigin::UserCall;
      O.Callee = FD;
      return add(O);
    }
    unknown();
  }
};

/// The dtype of E when E is provably on the host: a tensor whose dtype and device the analyses
/// know, or `torch::cat({a, b, ...})` / `torch::stack({...})` of such tensors of one dtype (the
/// planes of an image wrapped one by one). Empty otherwise.
std::string hostDtypeOf(const Expr *E, ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return {};
  E = stripCopies(E);
  std::string T = scalarTypeOf(E, Ctx);
  if (!T.empty() && deviceOf(E, Ctx) == DeviceKind::CPU)
    return T;
  const auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !isTorchDecl(FD) || !FD->getDeclName().isIdentifier() || (FD->getName() != "cat" && FD->getName() != "stack") ||
      C->getNumArgs() < 1)
    return {};
  const InitListExpr *IL = bracedList(C->getArg(0));
  if (!IL || IL->getNumInits() == 0)
    return {};
  std::string Common;
  for (const Expr *Elem : IL->inits()) {
    std::string ET = hostDtypeOf(Elem, Ctx, Depth + 1);
    if (ET.empty() || (!Common.empty() && ET != Common))
      return {};
    Common = ET;
  }
  return Common;
}
} // namespace

bool walkWideningChain(const Expr *E, ASTContext &Ctx, WideningChain &Out) {
  bool Widened = false;
  std::string To;
  const Expr *Conversion = nullptr;
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    E = stripTemporaries(E);
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      // `t / 255.0`, `t * s`: arithmetic with a scalar (the tensor on the left).
      OverloadedOperatorKind K = Op->getOperator();
      if (Op->getNumArgs() == 2 && (K == OO_Slash || K == OO_Star || K == OO_Minus || K == OO_Plus) &&
          isTensorType(Op->getArg(0)->getType()) && !isTensorType(stripCopies(Op->getArg(1))->getType())) {
        Out.Fixable = false;
        E = Op->getArg(0);
        ++Out.Steps;
        continue;
      }
      break;
    }
    const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
    if (!MC)
      break;
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj || !MD->getDeclName().isIdentifier() || !isTensorType(Obj->getType()))
      break;
    llvm::StringRef N = MD->getName();
    if (N == "to" || N == "toType" || N == "float" || N == "half" || N == "double") {
      if (N == "to" && copiesToDevice(MC))
        break; // an earlier copy: the chain starts after it
      std::string T = scalarTypeOf(MC, Ctx);
      if (T.empty())
        return false;
      if (To.empty()) {
        To = T; // the outermost conversion is what is copied
        Conversion = MC;
      }
      Widened = true;
      for (unsigned I = 1; I < MC->getNumArgs(); ++I)
        if (!isa<CXXDefaultArgExpr>(MC->getArg(I)))
          Out.Fixable = false;
    } else if (isViewStep(N)) {
    } else if (isScalarArith(N)) {
      for (const Expr *A : MC->arguments())
        if (isTensorType(stripCopies(A)->getType()))
          return false; // arithmetic with another tensor: that one would have to move too
    } else {
      break;
    }
    ++Out.Steps;
    E = Obj;
  }
  if (!Widened)
    return false;
  std::string From = hostDtypeOf(E, Ctx);
  unsigned FromSize = scalarTypeSize(From), ToSize = scalarTypeSize(To);
  if (!FromSize || !ToSize || ToSize <= FromSize)
    return false; // float source data, a narrowing conversion (converting first is right), or not
                  // known to be on the host (already on the device, or unknown)
  if (!isFloatingDtype(To))
    return false; // labels and indices widened to int64: small, and what the device's index
                  // and loss kernels take (a conversion there is one more launch per step)
  Out.Root = E;
  Out.Conversion = Conversion;
  Out.From = From;
  Out.To = To;
  return true;
}

bool isFloatingDtype(llvm::StringRef T) {
  return T == "Float" || T == "Double" || T == "Half" || T == "BFloat16";
}

std::string dtypeWord(llvm::StringRef T) {
  return llvm::StringSwitch<std::string>(T)
      .Case("Byte", "uint8")
      .Case("Char", "int8")
      .Case("Bool", "bool")
      .Case("Short", "int16")
      .Case("Half", "float16")
      .Case("BFloat16", "bfloat16")
      .Case("Int", "int32")
      .Case("Float", "float32")
      .Case("Long", "int64")
      .Case("Double", "float64")
      .Default(T.lower());
}

void originsOf(const Expr *E, ASTContext &Ctx, std::vector<TensorOrigin> &Out) {
  OriginWalker W{Ctx, Out, {}};
  W.walk(E, 0);
}

namespace {
/// The qualified name of RD's template ("torch::data::datasets::MapDataset"), or "".
std::string templateName(const RecordDecl *RD) {
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return S ? S->getSpecializedTemplate()->getQualifiedNameAsString() : std::string();
}

/// The user data set under `MapDataset<Source, Transform>` wrappers whose transforms keep the
/// values a host tensor was widened to (Stack stacks them, Normalize subtracts and divides in
/// the wide dtype), or null.
const CXXRecordDecl *sourceDataset(const CXXRecordDecl *RD, const ASTContext &Ctx) {
  for (int Depth = 0; RD && Depth < 8; ++Depth) {
    if (templateName(RD) != "torch::data::datasets::MapDataset")
      return isLibraryLocation(Ctx.getSourceManager(), RD->getLocation()) ? nullptr : RD;
    const auto *S = cast<ClassTemplateSpecializationDecl>(RD);
    if (S->getTemplateArgs().size() < 2 || S->getTemplateArgs()[1].getKind() != TemplateArgument::Type)
      return nullptr;
    std::string T = templateName(S->getTemplateArgs()[1].getAsType()->getAsCXXRecordDecl());
    if (T != "torch::data::transforms::Stack" && T != "torch::data::transforms::Normalize")
      return nullptr;
    if (S->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      return nullptr;
    RD = S->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  }
  return nullptr;
}

/// The data set's get(index): the method that overrides torch::data's Dataset::get; its
/// definition when this TU has one with a body, else its declaration.
const FunctionDecl *datasetGet(const CXXRecordDecl *RD) {
  RD = RD ? RD->getDefinition() : nullptr;
  if (!RD)
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (isDatasetGet(M)) {
      if (const FunctionDecl *Def = M->getDefinition(); Def && Def->getBody())
        return Def;
      return M;
    }
  return nullptr;
}

/// The field index in torch::data::Example of a member named Name (`data` 0, `target` 1), or -1.
int exampleFieldIndex(llvm::StringRef Name) { return Name == "data" ? 0 : Name == "target" ? 1 : -1; }

/// Element I of an Example written in a return (`{img, label}`, `Example<>(img, label)`), or null.
const Expr *exampleElement(const Expr *E, unsigned I) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid()) {
        E = CE->getArg(0); // a copy or move of the temporary
        continue;
      }
      return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return I < IL->getNumInits() ? IL->getInit(I) : nullptr;
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}
} // namespace

bool loaderBatchOrigins(const Expr *E, ASTContext &Ctx, std::vector<TensorOrigin> &Out, const FunctionDecl *&Get) {
  const VarDecl *Batch = nullptr;
  const Expr *BatchRef = nullptr;
  int Field = -1;
  for (int Depth = 0; E && Depth < 3 && !Batch; ++Depth) {
    E = stripCopies(E);
    // `torch::stack(parts)` / `torch::cat(parts)` of a local vector that std::transform filled
    // with one member of every example of a batch: that member of the batch, stacked.
    if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(C)) {
      const DeclRefExpr *PartsRef = collatedVector(C);
      if (!PartsRef)
        return false;
      for (const TransformWrite &W : transformWritesOf(cast<VarDecl>(PartsRef->getDecl()), PartsRef, Ctx)) {
        const auto *Ref = dyn_cast<DeclRefExpr>(stripCopies(W.Source));
        const auto *B = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
        int I = exampleFieldIndex(W.Member);
        if (!B || !B->isCXXForRangeDecl() || I < 0 || (Batch && (B != Batch || I != Field)))
          return false;
        Batch = B;
        BatchRef = Ref;
        Field = I;
      }
      if (!Batch)
        return false;
      break;
    }
    const auto *ME = dyn_cast_or_null<MemberExpr>(E);
    const auto *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    if (!F) {
      // `auto data = batch.data;` never assigned again: the member it holds.
      const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD || !VD->isLocalVarDecl() || isa<ParmVarDecl>(VD))
        return false;
      const VarValues &V = valuesOf(VD, Ctx);
      if (!V.Known || V.Written || V.Values.size() != 1)
        return false;
      E = V.Values.front();
      continue;
    }
    if (templateName(F->getParent()) != "torch::data::Example")
      return false;
    const auto *Base = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    Batch = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!Batch || !Batch->isCXXForRangeDecl())
      return false;
    BatchRef = Base;
    Field = static_cast<int>(F->getFieldIndex());
  }
  if (!Batch || Field < 0)
    return false;
  const HotCodeAnalysis &HC = HotCodeAnalysis::get(Ctx);
  const CXXForRangeStmt *For = nullptr;
  for (const Stmt *P = HC.parentOf(BatchRef); P && !For; P = HC.parentOf(P))
    if (const auto *R = dyn_cast<CXXForRangeStmt>(P); R && R->getLoopVariable() == Batch)
      For = R;
  if (!For || !For->getRangeInit())
    return false;
  const FunctionDecl *G = datasetGet(sourceDataset(datasetOfLoader(For->getRangeInit()->getType()), Ctx));
  if (!G)
    return false;
  Get = G;
  if (!G->getBody()) {
    // Defined in another TU: the project model knows what it returns (model/TUSummary.h).
    TensorOrigin O;
    O.K = TensorOrigin::UserCall;
    O.Callee = G;
    O.Element = Field;
    Out.push_back(O);
    return true;
  }
  std::vector<TensorOrigin> Of = exampleOriginsOf(G, static_cast<unsigned>(Field), Ctx);
  if (Of.empty())
    Of.push_back(TensorOrigin{});
  Out.insert(Out.end(), Of.begin(), Of.end());
  return true;
}

bool isDatasetGet(const FunctionDecl *FD) {
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(FD);
  if (!M || !M->getDeclName().isIdentifier() || M->getName() != "get" || M->getNumParams() != 1 ||
      M->size_overridden_methods() == 0)
    return false;
  QualType R = M->getReturnType().getNonReferenceType().getCanonicalType();
  return templateName(R->getAsCXXRecordDecl()) == "torch::data::Example";
}

std::vector<TensorOrigin> exampleOriginsOf(const FunctionDecl *FD, unsigned Element, ASTContext &Ctx) {
  std::vector<TensorOrigin> Out;
  if (!FD || !FD->getBody())
    return Out;
  for (const ReturnStmt *R : returnsOf(FD->getBody())) {
    if (const Expr *Elem = exampleElement(R->getRetValue(), Element))
      originsOf(Elem, Ctx, Out);
    else
      Out.push_back(TensorOrigin{});
  }
  return Out;
}

std::vector<TensorOrigin> returnOriginsOf(const FunctionDecl *FD, ASTContext &Ctx) {
  std::vector<TensorOrigin> Out;
  if (!FD || !FD->getBody())
    return Out;
  for (const ReturnStmt *R : returnsOf(FD->getBody()))
    originsOf(R->getRetValue(), Ctx, Out);
  return Out;
}

} // namespace torchlint
