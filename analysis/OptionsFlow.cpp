#include "analysis/OptionsFlow.h"
#include "analysis/HotCode.h"
#include "analysis/NnModules.h"
#include "analysis/TorchTypes.h"
#include "core/AstWalk.h"
#include "utils/ExprStrip.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace torchlint {

namespace {

constexpr unsigned MaxDepth = 4;

/// A helper call being followed: its parameters are bound to the call's arguments.
struct Frame {
  const CallExpr *Call;
  const FunctionDecl *FD;
  const Frame *Parent;
};

unsigned countRefs(const ValueDecl *D, const Stmt *Body) {
  if (!Body)
    return 0;
  unsigned N = 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Body))
    if (DRE->getDecl() == D)
      ++N;
  for (const Stmt *C : Body->children())
    N += countRefs(D, C);
  return N;
}

void collectRefs(const ValueDecl *D, const Stmt *S, std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() == D)
      Out.push_back(DRE);
  for (const Stmt *C : S->children())
    collectRefs(D, C, Out);
}

const FunctionDecl *functionOf(const VarDecl *VD) {
  return dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
}

/// A user function with a body that a helper call can be followed into.
const FunctionDecl *helperOf(const CallExpr *C) {
  if (isa<CXXOperatorCallExpr>(C))
    return nullptr;
  const FunctionDecl *FD = C->getDirectCallee();
  if (!FD || isTorchDecl(FD))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return nullptr;
  if (isa<CXXMethodDecl>(Def) && cast<CXXMethodDecl>(Def)->isVirtual())
    return nullptr;
  return Def;
}

/// True when every reference to local VD other than Use only reads it (copies, const calls), so
/// that its value is its initializer.
bool onlyRead(const VarDecl *VD, const Expr *Use, ASTContext &Ctx) {
  const FunctionDecl *FD = functionOf(VD);
  if (!FD || !FD->getBody())
    return false;
  std::vector<const DeclRefExpr *> Refs;
  collectRefs(VD, FD->getBody(), Refs);
  for (const DeclRefExpr *R : Refs) {
    if (R == Use)
      continue;
    const Stmt *P = HotCodeAnalysis::get(Ctx).parentOf(R);
    if (!P)
      return false;
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue || IC->getCastKind() == CK_NoOp) {
        if (IC->getCastKind() == CK_NoOp && !IC->getType().isConstQualified())
          return false;
        continue;
      }
      return false;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(P))
      if (CE->getConstructor()->isCopyConstructor())
        continue;
    if (const auto *ME = dyn_cast<MemberExpr>(P))
      if (const auto *MD = dyn_cast<CXXMethodDecl>(ME->getMemberDecl()))
        if (MD->isConst())
          continue;
    return false;
  }
  return true;
}

std::optional<int64_t> constantOf(const Expr *E, ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  bool B;
  if (E->EvaluateAsBooleanCondition(B, Ctx))
    return B ? 1 : 0;
  return std::nullopt;
}

/// The value of argument expression E of a setter, evaluated in frame F.
OptionValue evalArg(const Expr *E, const Frame *F, ASTContext &Ctx) {
  OptionValue V;
  V.K = OptionValue::Set;
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
      if (F && P->getDeclContext() == F->FD) {
        unsigned Idx = P->getFunctionScopeIndex();
        if (Idx >= F->Call->getNumArgs())
          return OptionValue{};
        bool SingleUse = countRefs(P, F->FD->getBody()) == 1;
        const Expr *A = F->Call->getArg(Idx);
        if (isa<CXXDefaultArgExpr>(A)) {
          V.Constant = P->hasDefaultArg() ? constantOf(P->getDefaultArg(), Ctx) : std::nullopt;
          if (!F->Parent && SingleUse) {
            V.DefaultedCall = F->Call;
            V.DefaultedParam = Idx;
          }
          return V;
        }
        V = evalArg(A, F->Parent, Ctx);
        if (!SingleUse) {
          V.Source = nullptr;
          V.DefaultedCall = nullptr;
        }
        return V;
      }
  V.Constant = constantOf(S, Ctx);
  if (!F)
    V.Source = E;
  return V;
}

OptionValue merge(const std::vector<OptionValue> &Vs) {
  if (Vs.empty())
    return OptionValue{};
  OptionValue R = Vs.front();
  for (const OptionValue &V : Vs)
    if (V.K != R.K || V.Constant != R.Constant)
      return OptionValue{};
  if (Vs.size() > 1) {
    R.Source = nullptr;
    R.DefaultedCall = nullptr;
  }
  return R;
}

const CXXRecordDecl *recordOf(QualType T) {
  return T.isNull() ? nullptr : T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
}

OptionValue resolveOpt(const Expr *E, llvm::StringRef Name, const Frame *F, unsigned Depth, ASTContext &Ctx);

OptionValue resolveReturns(const CallExpr *C, const FunctionDecl *Def, const Frame *F, unsigned Depth,
                           ASTContext & /*Ctx*/, llvm::function_ref<OptionValue(const Expr *, const Frame *)> Fn) {
  if (Depth >= MaxDepth)
    return OptionValue{};
  auto Rets = returnsOf(Def->getBody());
  Frame Inner{C, Def, F};
  std::vector<OptionValue> Vs;
  for (const ReturnStmt *R : Rets) {
    if (!R->getRetValue())
      return OptionValue{};
    Vs.push_back(Fn(R->getRetValue(), &Inner));
  }
  OptionValue V = merge(Vs);
  V.HelperDepth += 1;
  return V;
}

OptionValue resolveOpt(const Expr *E, llvm::StringRef Name, const Frame *F, unsigned Depth, ASTContext &Ctx) {
  E = stripCopies(E);
  if (!E)
    return OptionValue{};
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getDeclName().isIdentifier())
      return OptionValue{};
    const CXXRecordDecl *Cls = MD->getParent();
    if (MD->getName() == Name && MC->getNumArgs() == 1)
      return evalArg(MC->getArg(0), F, Ctx);
    // Another setter of the same options class: `-> decltype(*this)`, returns Cls&.
    if (MC->getNumArgs() == 1 && recordOf(MD->getReturnType()) == Cls && isTorchDecl(MD))
      return resolveOpt(MC->getImplicitObjectArgument(), Name, F, Depth, Ctx);
    return OptionValue{};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getConstructor()->isCopyOrMoveConstructor())
      return OptionValue{};
    const CXXRecordDecl *RD = CE->getConstructor()->getParent();
    if (!isTorchDecl(RD))
      return OptionValue{};
    OptionValue V;
    V.K = OptionValue::Default;
    V.Constant = optionDefault(RD, Name, Ctx);
    return V;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return OptionValue{};
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (F && P->getDeclContext() == F->FD) {
        unsigned Idx = P->getFunctionScopeIndex();
        if (Idx >= F->Call->getNumArgs() || isa<CXXDefaultArgExpr>(F->Call->getArg(Idx)) || !onlyRead(P, DRE, Ctx))
          return OptionValue{};
        return resolveOpt(F->Call->getArg(Idx), Name, F->Parent, Depth, Ctx);
      }
      return OptionValue{};
    }
    if (!VD->hasLocalStorage() || !VD->getInit() || VD->getType()->isReferenceType() || !onlyRead(VD, DRE, Ctx))
      return OptionValue{};
    return resolveOpt(VD->getInit(), Name, F, Depth, Ctx);
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Def = helperOf(C);
    if (!Def || Def->getReturnType()->isReferenceType())
      return OptionValue{};
    return resolveReturns(C, Def, F, Depth, Ctx, [&](const Expr *R, const Frame *Inner) {
      return resolveOpt(R, Name, Inner, Depth + 1, Ctx);
    });
  }
  return OptionValue{};
}

/// The options class of a module class: the type of its `options` member.
const CXXRecordDecl *optionsClassOf(const CXXRecordDecl *Impl, int Depth = 0) {
  if (!Impl || Depth > 8 || !(Impl = Impl->getDefinition()))
    return nullptr;
  for (const FieldDecl *FD : Impl->fields())
    if (FD->getName() == "options")
      return recordOf(FD->getType());
  for (const CXXBaseSpecifier &B : Impl->bases())
    if (const CXXRecordDecl *R = optionsClassOf(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return R;
  return nullptr;
}

bool isNullHolder(const Expr *E) {
  E = stripCopies(E);
  if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(E))
    return CE->getNumArgs() == 1 && CE->getArg(0)->getType()->isNullPtrType();
  return E && E->getType()->isNullPtrType();
}

void collectFieldAssignments(const FieldDecl *FD, const Stmt *S, std::vector<const Expr *> &Out) {
  if (!S)
    return;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S))
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (const auto *ME = dyn_cast<MemberExpr>(stripCopies(Op->getArg(0))))
        if (ME->getMemberDecl() == FD)
          Out.push_back(Op->getArg(1));
  for (const Stmt *C : S->children())
    collectFieldAssignments(FD, C, Out);
}

ModuleOrigin resolveMod(const Expr *E, llvm::StringRef Name, const Frame *F, unsigned Depth, ASTContext &Ctx) {
  ModuleOrigin O;
  E = stripCopies(E);
  if (!E || Depth > MaxDepth)
    return O;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    const CXXRecordDecl *Impl = moduleImplOf(CE->getType());
    if (!Impl || isNullHolder(CE))
      return O;
    O.Impl = Impl;
    O.Construct = CE;
    unsigned Written = 0;
    for (const Expr *A : CE->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        ++Written;
    const CXXRecordDecl *OptCls = optionsClassOf(Impl);
    if (Written == 1 && moduleImplOf(CE->getArg(0)->getType()) == Impl)
      return resolveMod(CE->getArg(0), Name, F, Depth, Ctx); // a holder converted to its subclass
    if (Written == 1 && OptCls) {
      O.OptionsArg = CE->getArg(0);
      O.Option = resolveOpt(CE->getArg(0), Name, F, Depth, Ctx);
    } else if (Written >= 2 && OptCls) {
      // Positional constructor: Conv2d(in, out, kernel) builds Conv2dOptions(in, out, kernel).
      O.Option.K = OptionValue::Default;
      O.Option.Constant = optionDefault(OptCls, Name, Ctx);
    }
    return O;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return O;
    if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
      if (F && P->getDeclContext() == F->FD && P->getFunctionScopeIndex() < F->Call->getNumArgs() &&
          !isa<CXXDefaultArgExpr>(F->Call->getArg(P->getFunctionScopeIndex())))
        return resolveMod(F->Call->getArg(P->getFunctionScopeIndex()), Name, F->Parent, Depth, Ctx);
      return O;
    }
    if (!VD->hasLocalStorage() || !VD->getInit() || VD->getType()->isReferenceType())
      return O;
    // Not reassigned in its function.
    const FunctionDecl *Fn = functionOf(VD);
    std::vector<const DeclRefExpr *> Refs;
    collectRefs(VD, Fn ? Fn->getBody() : nullptr, Refs);
    for (const DeclRefExpr *R : Refs) {
      if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(HotCodeAnalysis::get(Ctx).parentOf(R)))
        if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 && stripCopies(Op->getArg(0)) == R)
          return O;
    }
    return resolveMod(VD->getInit(), Name, F, Depth, Ctx);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return O;
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (!RD || !RD->hasDefinition())
      return O;
    std::vector<const Expr *> Defs;
    if (FD->hasInClassInitializer() && FD->getInClassInitializer())
      Defs.push_back(FD->getInClassInitializer());
    for (const CXXMethodDecl *MD : RD->methods()) {
      const FunctionDecl *Def = nullptr;
      if (!MD->hasBody(Def) || !Def)
        continue;
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        for (const CXXCtorInitializer *I : Ctor->inits())
          if (I->isWritten() && I->getMember() == FD)
            Defs.push_back(I->getInit());
      collectFieldAssignments(FD, Def->getBody(), Defs);
    }
    const Expr *Only = nullptr;
    for (const Expr *D : Defs) {
      if (isNullHolder(D))
        continue;
      if (Only)
        return O; // assigned in more than one place
      Only = D;
    }
    if (!Only)
      return O;
    if (const auto *PL = dyn_cast<ParenListExpr>(Only))
      if (PL->getNumExprs() == 1)
        Only = PL->getExpr(0);
    return resolveMod(Only, Name, nullptr, Depth, Ctx);
  }
  if (const auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(Callee))
      if (MD->getDeclName().isIdentifier() && MD->getName() == "register_module" &&
          MD->getParent()->getQualifiedNameAsString() == "torch::nn::Module" && C->getNumArgs() == 2)
        return resolveMod(C->getArg(1), Name, F, Depth, Ctx);
    const FunctionDecl *Def = helperOf(C);
    if (!Def || Def->getReturnType()->isReferenceType() || Depth >= MaxDepth)
      return O;
    auto Rets = returnsOf(Def->getBody());
    if (Rets.size() != 1 || !Rets[0]->getRetValue())
      return O;
    Frame Inner{C, Def, F};
    O = resolveMod(Rets[0]->getRetValue(), Name, &Inner, Depth + 1, Ctx);
    O.HelperDepth += 1;
    return O;
  }
  return O;
}

} // namespace

std::optional<int64_t> optionDefault(const CXXRecordDecl *RD, llvm::StringRef Name, ASTContext &Ctx) {
  if (!RD || !(RD = RD->getDefinition()))
    return std::nullopt;
  std::string Field = (Name + "_").str();
  for (const FieldDecl *FD : RD->fields())
    if (FD->getName() == Field) {
      if (!FD->hasInClassInitializer())
        return std::nullopt;
      if (const Expr *Init = FD->getInClassInitializer())
        return constantOf(Init, Ctx);
      // A member of a class template specialization whose default member initializer was not
      // instantiated in this TU: read it from the template's pattern.
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
        if (const ClassTemplateDecl *T = Spec->getSpecializedTemplate())
          if (const CXXRecordDecl *Pattern = T->getTemplatedDecl())
            for (const FieldDecl *PF : Pattern->fields())
              if (PF->getName() == Field && PF->getInClassInitializer() &&
                  !PF->getInClassInitializer()->isValueDependent())
                return constantOf(PF->getInClassInitializer(), Ctx);
      return std::nullopt;
    }
  return std::nullopt;
}

OptionValue resolveOption(const Expr *Options, llvm::StringRef Name, ASTContext &Ctx) {
  return resolveOpt(Options, Name, nullptr, 0, Ctx);
}

ModuleOrigin resolveModuleOption(const Expr *M, llvm::StringRef Name, ASTContext &Ctx) {
  return resolveMod(M, Name, nullptr, 0, Ctx);
}

} // namespace torchlint
