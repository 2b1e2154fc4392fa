#include "analysis/TensorDtype.h"
#include "analysis/HotCode.h"
#include "analysis/LocalDataflow.h"
#include "analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace torchlint {

namespace {

bool isPredicateName(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("eq", "ne", "lt", "gt", "le", "ge", true)
      .Cases("greater", "less", "greater_equal", "less_equal", "not_equal", true)
      .Cases("logical_and", "logical_or", "logical_xor", "logical_not", true)
      .Cases("isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", true)
      .Cases("isclose", "signbit", "isin", true)
      .Default(false);
}

/// Methods whose result has the object's dtype.
bool keepsDtype(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("view", "reshape", "flatten", "squeeze", "unsqueeze", "t", "transpose", true)
      .Cases("permute", "contiguous", "clone", "detach", "expand", "expand_as", "view_as", true)
      .Cases("cuda", "cpu", "slice", "select", "narrow", "index", "reshape_as", true)
      .Cases("logical_not_", "squeeze_", "unsqueeze_", "detach_", "flip", "roll", true)
      .Default(false);
}

class Prover {
public:
  explicit Prover(ASTContext &Ctx) : Ctx(Ctx) {}

  bool dtypeBool(const Expr *E, unsigned Depth) {
    if (!E || Depth > 24)
      return false;
    E = stripCopies(E);
    while (true) {
      const Expr *Prev = E;
      if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
        if (!isa<CXXTemporaryObjectExpr>(CE) && CE->getParenOrBraceRange().isInvalid() && CE->getNumArgs() >= 1)
          E = stripCopies(CE->getArg(0));
      if (E == Prev)
        break;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
        const auto *ED = dyn_cast<EnumDecl>(EC->getDeclContext());
        return ED && ED->getQualifiedNameAsString() == "c10::ScalarType" && EC->getName() == "Bool";
      }
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (isTorchDecl(VD) && VD->getInit() && VD->getType().isConstQualified())
          return dtypeBool(VD->getInit(), Depth + 1); // at::kBool
      return false;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // TensorOptions(kBool), optional<ScalarType>(kBool)
      if (CE->getNumArgs() >= 1)
        return dtypeBool(CE->getArg(0), Depth + 1);
      return false;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj || !MD->getDeclName().isIdentifier() || !isTensorOptionsType(Obj->getType()))
        return false;
      if (MD->getName() == "dtype" && MC->getNumArgs() >= 1)
        return dtypeBool(MC->getArg(0), Depth + 1);
      return dtypeBool(Obj, Depth + 1);
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (FD && isTorchDecl(FD) && FD->getDeclName().isIdentifier() && FD->getName() == "dtype" && C->getNumArgs() >= 1)
        return dtypeBool(C->getArg(0), Depth + 1); // torch::dtype(torch::kBool)
    }
    return false;
  }

  bool tensor(const Expr *E, unsigned Depth = 0) {
    if (!E || Depth > 24)
      return false;
    E = stripCopies(E);
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return tensor(C->getTrueExpr(), Depth + 1) && tensor(C->getFalseExpr(), Depth + 1);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return false;
      if (const auto *PV = dyn_cast<ParmVarDecl>(VD))
        return parameter(PV, Depth);
      if (!InProgress.insert(VD).second)
        return true; // m = m & (x > 0): a cycle adds no non-bool value
      const VarValues &V = valuesOf(VD, Ctx);
      bool R = V.Known && !V.Values.empty();
      for (const Expr *Val : V.Values)
        R = R && tensor(Val, Depth + 1);
      InProgress.erase(VD);
      return R;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
      switch (Op->getOperator()) {
      case OO_EqualEqual:
      case OO_ExclaimEqual:
      case OO_Less:
      case OO_Greater:
      case OO_LessEqual:
      case OO_GreaterEqual:
        return true;
      case OO_Amp:
      case OO_Pipe:
      case OO_Caret:
        return Op->getNumArgs() == 2 && tensor(Op->getArg(0), Depth + 1) && tensor(Op->getArg(1), Depth + 1);
      case OO_Tilde:
        return Op->getNumArgs() == 1 && tensor(Op->getArg(0), Depth + 1);
      default:
        return false;
      }
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!MD || !Obj || !isTensorType(Obj->getType()) || !MD->getDeclName().isIdentifier())
        return false;
      llvm::StringRef N = MD->getName();
      if (isPredicateName(N))
        return true;
      if ((N == "any" || N == "all"))
        return true;
      if (N == "to" || N == "toType" || N == "type") {
        if (MC->getNumArgs() == 0)
          return false;
        const Expr *A = MC->getArg(0);
        if (isTensorType(stripCopies(A)->getType()))
          return tensor(A, Depth + 1); // to(other): other's dtype
        // to(kBool), to(device, kBool), to(options.dtype(kBool))
        for (const Expr *Arg : MC->arguments())
          if (!isa<CXXDefaultArgExpr>(Arg) && dtypeBool(Arg, Depth + 1))
            return true;
        // to(device) keeps the dtype; to(kFloat) does not.
        bool AnyDtype = false;
        for (const Expr *Arg : MC->arguments()) {
          if (isa<CXXDefaultArgExpr>(Arg))
            continue;
          QualType T = stripCopies(Arg)->getType();
          if (const auto *ET = T->getAs<EnumType>())
            if (ET->getDecl()->getQualifiedNameAsString() == "c10::ScalarType")
              AnyDtype = true;
          if (isTensorOptionsType(Arg->getType()))
            AnyDtype = true; // options may carry a dtype
        }
        return !AnyDtype && tensor(Obj, Depth + 1);
      }
      if (keepsDtype(N))
        return tensor(Obj, Depth + 1);
      return false;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !isTorchDecl(FD) || !FD->getDeclName().isIdentifier())
        return false;
      llvm::StringRef N = FD->getName();
      if (isPredicateName(N) || N == "any" || N == "all")
        return true;
      // Factories with dtype kBool: torch::zeros({n}, torch::kBool), torch::ones(.., opts.dtype(kBool)).
      bool Factory = false;
      for (llvm::StringRef F : tensorFactoryNames())
        Factory |= F == N;
      if (Factory || N.ends_with("_like")) {
        for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams(); ++I) {
          const Expr *A = C->getArg(I);
          if (isa<CXXDefaultArgExpr>(A))
            continue;
          QualType PT = FD->getParamDecl(I)->getType();
          if (isTensorOptionsType(PT) || PT.getAsString().find("ScalarType") != std::string::npos)
            if (dtypeBool(A, Depth + 1))
              return true;
        }
        if (N.ends_with("_like") && C->getNumArgs() >= 1) {
          // zeros_like(mask) keeps mask's dtype unless options are given.
          for (unsigned I = 1; I < C->getNumArgs(); ++I)
            if (!isa<CXXDefaultArgExpr>(C->getArg(I)) && I < FD->getNumParams() &&
                isTensorOptionsType(FD->getParamDecl(I)->getType()))
              return false;
          return tensor(C->getArg(0), Depth + 1);
        }
      }
      return false;
    }
    return false;
  }

private:
  /// A parameter is a bool tensor when the function is called in this TU, only called (never
  /// named otherwise: no callback whose callers are unseen), never reassigned, and every call
  /// passes a bool tensor (`masked_loss(pred, target, target > 0)` at each call site).
  bool parameter(const ParmVarDecl *PV, unsigned Depth) {
    auto Args = HotCodeAnalysis::get(Ctx).argumentsAtEveryCall(PV);
    if (!Args || !InProgress.insert(PV).second)
      return Args.has_value(); // a recursive call passes what the outer call got
    bool R = true;
    for (const Expr *Arg : *Args)
      R = R && tensor(Arg, Depth + 1);
    InProgress.erase(PV);
    return R;
  }

  ASTContext &Ctx;
  llvm::SmallPtrSet<const VarDecl *, 8> InProgress;
};

} // namespace

bool isBoolTensor(const Expr *E, ASTContext &Ctx) {
  Prover P(Ctx);
  return P.tensor(E);
}

} // namespace torchlint

namespace torchlint {

namespace {
bool isScalarTypeEnum(QualType T) {
  const auto *ET = T.getCanonicalType()->getAs<EnumType>();
  return ET && ET->getDecl()->getQualifiedNameAsString() == "c10::ScalarType";
}

std::string denoted(const Expr *E, ASTContext &Ctx, bool *NoDtype, unsigned Depth) {
  if (!E || Depth > 16)
    return "";
  E = stripCopies(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return isScalarTypeEnum(Ctx.getEnumType(cast<EnumDecl>(EC->getDeclContext()))) ? EC->getName().str() : "";
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (isTorchDecl(VD) && VD->getInit() && VD->getType().isConstQualified())
        return denoted(VD->getInit(), Ctx, NoDtype, Depth + 1); // at::kByte
      if (!isTorchDecl(VD) && (isScalarTypeEnum(VD->getType()) || isTensorOptionsType(VD->getType()))) {
        const VarValues &V = valuesOf(VD, Ctx);
        if (!V.Known || V.Values.empty())
          return "";
        std::string R;
        bool AllNone = true;
        for (const Expr *Val : V.Values) {
          bool None = false;
          std::string S = denoted(Val, Ctx, &None, Depth + 1);
          AllNone = AllNone && None;
          if (S.empty() && !None)
            return "";
          if (!S.empty() && !R.empty() && S != R)
            return "";
          if (!S.empty())
            R = S;
          if (!R.empty() && None)
            return ""; // one value with the dtype, one without
        }
        if (R.empty() && AllNone && NoDtype)
          *NoDtype = true;
        return R;
      }
    }
    return "";
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (isTensorOptionsType(CE->getType()) && CE->getNumArgs() == 0) {
      if (NoDtype)
        *NoDtype = true; // TensorOptions()
      return "";
    }
    // TensorOptions(kByte), optional<ScalarType>(kByte), TensorOptions(device) (no dtype)
    if (CE->getNumArgs() >= 1) {
      const Expr *A = CE->getArg(0);
      if (isTensorOptionsType(CE->getType()) && !isScalarTypeEnum(stripCopies(A)->getType()) &&
          isDeviceLikeType(stripCopies(A)->getType())) {
        if (NoDtype)
          *NoDtype = true;
        return "";
      }
      return denoted(A, Ctx, NoDtype, Depth + 1);
    }
    return "";
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj || !MD->getDeclName().isIdentifier() || !isTensorOptionsType(Obj->getType()))
      return "";
    if (MD->getName() == "dtype" && MC->getNumArgs() >= 1)
      return denoted(MC->getArg(0), Ctx, nullptr, Depth + 1);
    return denoted(Obj, Ctx, NoDtype, Depth + 1);
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (FD && isTorchDecl(FD) && FD->getDeclName().isIdentifier() && C->getNumArgs() >= 1) {
      if (FD->getName() == "dtype")
        return denoted(C->getArg(0), Ctx, nullptr, Depth + 1); // torch::dtype(torch::kByte)
      if (FD->getName() == "device" || FD->getName() == "requires_grad") {
        if (NoDtype)
          *NoDtype = true; // torch::device(d)
        return "";
      }
    }
  }
  return "";
}

/// Factories whose result has the default dtype (float) when their options carry none.
bool defaultsToFloat(llvm::StringRef N) {
  return llvm::StringSwitch<bool>(N)
      .Cases("zeros", "ones", "empty", "rand", "randn", "from_blob", "eye", "linspace", "logspace", true)
      .Cases("empty_strided", "normal", true)
      .Default(false);
}

std::string dtypeOfTensor(const Expr *E, ASTContext &Ctx, unsigned Depth, llvm::SmallPtrSetImpl<const VarDecl *> &Seen) {
  if (!E || Depth > 24)
    return "";
  E = stripCopies(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD))
      return "";
    // The only write that reaches this read decides (`img = img.to(torch::kFloat32);` then `img`).
    if (const Expr *Last = onlyReachingAssignment(DRE, VD, Ctx))
      return dtypeOfTensor(Last, Ctx, Depth + 1, Seen);
    if (!Seen.insert(VD).second)
      return "";
    const VarValues &V = valuesOf(VD, Ctx);
    if (!V.Known || V.Values.empty())
      return "";
    std::string R;
    for (const Expr *Val : V.Values) {
      std::string S = dtypeOfTensor(Val, Ctx, Depth + 1, Seen);
      if (S.empty() || (!R.empty() && S != R))
        return "";
      R = S;
    }
    return R;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !Obj || !isTensorType(Obj->getType()) || !MD->getDeclName().isIdentifier())
      return "";
    llvm::StringRef N = MD->getName();
    if (N == "to" || N == "toType") {
      if (MC->getNumArgs() == 0)
        return "";
      if (isTensorType(stripCopies(MC->getArg(0))->getType()))
        return dtypeOfTensor(MC->getArg(0), Ctx, Depth + 1, Seen); // to(other)
      for (unsigned I = 0; I < MC->getNumArgs(); ++I) {
        const Expr *A = MC->getArg(I);
        if (isa<CXXDefaultArgExpr>(A))
          continue;
        QualType T = stripCopies(A)->getType();
        if (isScalarTypeEnum(T))
          return denoted(A, Ctx, nullptr, Depth + 1);
        if (isTensorOptionsType(T)) {
          bool None = false;
          std::string S = denoted(A, Ctx, &None, Depth + 1);
          if (!S.empty())
            return S;
          if (!None)
            return "";
        }
      }
      return dtypeOfTensor(Obj, Ctx, Depth + 1, Seen); // to(device)
    }
    if (N == "float")
      return "Float";
    if (N == "double")
      return "Double";
    if (N == "half")
      return "Half";
    if (N == "byte")
      return "Byte";
    if (N == "pin_memory" || keepsDtype(N))
      return dtypeOfTensor(Obj, Ctx, Depth + 1, Seen);
    return "";
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !isTorchDecl(FD) || !FD->getDeclName().isIdentifier())
      return "";
    llvm::StringRef N = FD->getName();
    TensorFactoryKind K = tensorFactoryKind(N);
    if (!K.Fresh && !K.FromHost && !defaultsToFloat(N))
      return "";
    bool SawOptions = false;
    for (unsigned I = 0; I < C->getNumArgs() && I < FD->getNumParams(); ++I) {
      const Expr *A = C->getArg(I);
      QualType PT = FD->getParamDecl(I)->getType();
      if (!isTensorOptionsType(PT) && !isScalarTypeEnum(PT.getNonReferenceType()))
        continue;
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      SawOptions = true;
      bool None = false;
      std::string S = denoted(A, Ctx, &None, Depth + 1);
      if (!S.empty())
        return S;
      if (!None)
        return "";
    }
    // torch::full(size, value) without a dtype takes the fill value's (at::full infers it since
    // libtorch 1.8): an integer fills int64, a bool fills bool, a floating value the default float.
    if (N == "full" && !SawOptions && C->getNumArgs() >= 2) {
      const Expr *V = C->getArg(1)->IgnoreImplicit()->IgnoreParens();
      if (const auto *Ctor = dyn_cast<CXXConstructExpr>(V); Ctor && Ctor->getNumArgs() == 1)
        V = Ctor->getArg(0)->IgnoreImplicit()->IgnoreParens(); // the conversion to c10::Scalar
      QualType T = V->getType().getNonReferenceType().getCanonicalType();
      if (T->isBooleanType())
        return "Bool";
      if (T->isIntegerType() && !T->isEnumeralType())
        return "Long";
      if (T->isRealFloatingType())
        return "Float";
      return "";
    }
    return defaultsToFloat(N) ? "Float" : "";
  }
  return "";
}
} // namespace

std::string scalarTypeDenotedBy(const Expr *E, ASTContext &Ctx, bool *NoDtype) { return denoted(E, Ctx, NoDtype, 0); }

std::string scalarTypeOf(const Expr *E, ASTContext &Ctx) {
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  return dtypeOfTensor(E, Ctx, 0, Seen);
}

unsigned scalarTypeSize(llvm::StringRef Name) {
  return llvm::StringSwitch<unsigned>(Name)
      .Cases("Byte", "Char", "Bool", "QInt8", "QUInt8", 1)
      .Cases("Short", "Half", "BFloat16", 2)
      .Cases("Int", "Float", "QInt32", 4)
      .Cases("Long", "Double", "ComplexFloat", 8)
      .Default(0);
}

} // namespace torchlint
