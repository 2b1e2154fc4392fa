#include "rules/ConvBiasBeforeBnCheck.h"
#include "analysis/NnModules.h"
#include "analysis/OptionsFlow.h"
#include "analysis/ProgramFacts.h"
#include "analysis/TUFacts.h"
#include "core/AstWalk.h"
#include "core/PerTU.h"
#include "core/Recovery.h"
#include "fixits/SetupFixes.h"
#include "utils/ExprStrip.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace torchlint {

void ConvBiasBeforeBnCheck::registerMatchers(MatchFinder *Finder) {
  auto Seq = cxxRecordDecl(hasAnyName("::torch::nn::Sequential", "::torch::nn::SequentialImpl"));
  Finder->addMatcher(
      cxxConstructExpr(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(Seq)))), argumentCountAtLeast(2))
          .bind("seq"),
      this);
  Finder->addMatcher(
      cxxMemberCallExpr(callee(cxxMethodDecl(hasName("push_back"), ofClass(hasName("::torch::nn::SequentialImpl")))))
          .bind("push"),
      this);
  // bn(conv(x)) / bn->forward(conv->forward(x)) in a module's methods.
  Finder->addMatcher(cxxOperatorCallExpr(hasOverloadedOperatorName("()")).bind("apply"), this);
  Finder->addMatcher(cxxMemberCallExpr(callee(cxxMethodDecl(hasName("forward")))).bind("apply"), this);
}

namespace {

int bnDims(const Expr *E) { return batchNormDims(moduleImplOf(E->getType())); }

const FieldDecl *thisField(const Expr *E) {
  if (const auto *ME = dyn_cast<MemberExpr>(stripCopies(E)))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

/// The call that consumes the value of call C directly (through temporaries and conversions).
const CallExpr *consumer(const Expr *C, ASTContext &Ctx) {
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const Stmt *Cur = C;
  for (int I = 0; I < 8; ++I) {
    const Stmt *P = H.parentOf(Cur);
    if (!P)
      return nullptr;
    if (const auto *Call = dyn_cast<CallExpr>(P))
      return Call;
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr, CXXConstructExpr>(P))
      return nullptr;
    Cur = P;
  }
  return nullptr;
}

/// The BatchNorm call (of Dims dimensions) that takes the value of forward call C directly as its
/// input, else null.
const CallExpr *directBatchNorm(const Expr *C, int Dims, ASTContext &Ctx) {
  const CallExpr *Outer = consumer(C, Ctx);
  if (!Outer)
    return nullptr;
  const Expr *BN = moduleOfForwardCall(Outer);
  if (!BN || bnDims(BN) != Dims)
    return nullptr;
  // C must be the input argument.
  unsigned First = isa<CXXOperatorCallExpr>(Outer) ? 1 : 0;
  if (Outer->getNumArgs() <= First)
    return nullptr;
  const Expr *In = Outer->getArg(First);
  if (In->getSourceRange() == C->getSourceRange() || stripCopies(In) == stripCopies(C) ||
      In->getSourceRange().fullyContains(C->getSourceRange()))
    return Outer;
  return nullptr;
}

unsigned countRefs(const ValueDecl *D, const Stmt *S);

/// True when statement S assigns to V (`V = ...`), so V's earlier value is dead after it.
bool overwrites(const Stmt *S, const VarDecl *V) {
  if (const auto *E = dyn_cast<Expr>(S))
    S = E->IgnoreImplicit();
  const Expr *L = nullptr;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S); Op && Op->getOperator() == OO_Equal)
    L = Op->getArg(0);
  if (const auto *Op = dyn_cast<BinaryOperator>(S); Op && Op->getOpcode() == BO_Assign)
    L = Op->getLHS();
  const auto *R = L ? dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts()) : nullptr;
  return R && R->getDecl() == V;
}

/// The BatchNorm call of Dims dimensions in statement S whose input is the variable V, when that is
/// the only read of V in S, else null.
const CallExpr *batchNormOfVar(const Stmt *S, const VarDecl *V, int Dims) {
  const CallExpr *Found = nullptr;
  forEachCall(S, [&](const CallExpr *C) {
    const Expr *BN = moduleOfForwardCall(C);
    if (Found || !BN || bnDims(BN) != Dims)
      return;
    unsigned First = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
    if (C->getNumArgs() <= First)
      return;
    if (const auto *R = dyn_cast<DeclRefExpr>(stripCopies(C->getArg(First))))
      if (R->getDecl() == V)
        Found = C;
  });
  // Reads of V in S besides the BatchNorm's input (the assignment `V = bn(V)` writes V).
  unsigned Reads = countRefs(V, S) - (overwrites(S, V) ? 1 : 0);
  return Found && Reads == 1 ? Found : nullptr;
}

/// A bool field of the class read as `if (flag)` (`this->flag`), written only where the module is
/// built (its in-class initialiser, constructors): a choice fixed per module, such as the
/// `add_bn` of a conv block that ends some layers without BatchNorm. Else null.
const FieldDecl *constructionFlag(const Expr *Cond, ASTContext &Ctx) {
  const FieldDecl *F = thisField(Cond->IgnoreParenImpCasts());
  if (!F || !F->getType()->isBooleanType())
    return nullptr;
  // Outside constructors, every use of the field in the TU is a read of its value (not an
  // assignment, an increment, a reference or pointer taken). One scan of the TU per field.
  struct Fixed : llvm::DenseMap<const FieldDecl *, bool> {};
  auto [It, New] = perTU<Fixed>(Ctx).try_emplace(F, true);
  if (New) {
    const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
    for (const BoundNodes &N : match(memberExpr(member(equalsNode(F))).bind("m"), Ctx)) {
      const auto *ME = N.getNodeAs<MemberExpr>("m");
      if (isa_and_nonnull<CXXConstructorDecl>(H.enclosingFunction(ME)))
        continue;
      const auto *Read = dyn_cast_or_null<ImplicitCastExpr>(H.parentOf(ME));
      if (!Read || Read->getCastKind() != CK_LValueToRValue) {
        It->second = false;
        break;
      }
    }
  }
  return It->second ? F : nullptr;
}

/// `x = conv(x); x = bn(x);` and `auto y = conv(x); return bn(y);`: the value of forward call C
/// is stored in a local of a block, and the next statement of that block feeds it to a BatchNorm
/// of Dims dimensions, its only read before it is overwritten or goes out of use. With Flag, also
/// `x = conv(x); if (flag) { x = bn(x); ... }` where flag is fixed at construction
/// (constructionFlag): *Flag is set. That BatchNorm call, else null.
const CallExpr *batchNormThroughLocal(const Expr *C, int Dims, ASTContext &Ctx, const FieldDecl **Flag) {
  const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
  const VarDecl *V = nullptr;
  const Stmt *Cur = C, *Own = nullptr;
  const CompoundStmt *Block = nullptr;
  for (int I = 0; I < 10 && !Block; ++I) {
    const Stmt *P = H.parentOf(Cur);
    if (!P)
      return nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P); Op && Op->getOperator() == OO_Equal && !V) {
      const auto *L = dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts());
      if (!L || Op->getArg(0) == Cur)
        return nullptr;
      V = dyn_cast<VarDecl>(L->getDecl());
    } else if (const auto *DS = dyn_cast<DeclStmt>(P); DS && !V) {
      if (!DS->isSingleDecl())
        return nullptr;
      V = dyn_cast<VarDecl>(DS->getSingleDecl());
    } else if (isa<CompoundStmt>(P)) {
      Block = cast<CompoundStmt>(P);
      Own = Cur;
      break;
    } else if (!isa<Expr>(P)) {
      return nullptr;
    }
    Cur = P;
  }
  if (!V || !Block || !V->isLocalVarDeclOrParm() || V->getType()->isReferenceType() || !isTensorType(V->getType()))
    return nullptr;
  auto It = llvm::find(Block->body(), Own);
  if (It == Block->body_end() || std::next(It) == Block->body_end())
    return nullptr;
  const Stmt *Next = *std::next(It);
  if (const auto *If = dyn_cast<IfStmt>(Next); If && Flag) {
    // `if (add_bn) { x = bn(x); x = act(x); }` with no else: the conv's value reaches the
    // BatchNorm when the flag is set, and is the block's output (bias needed) when it is not.
    if (If->getElse() || If->getInit() || If->getConditionVariable() || !If->getCond())
      return nullptr;
    const FieldDecl *F = constructionFlag(If->getCond(), Ctx);
    const Stmt *First = If->getThen();
    if (const auto *Then = dyn_cast<CompoundStmt>(First))
      First = Then->body_empty() ? nullptr : Then->body_front();
    const CallExpr *BN = F && First ? batchNormOfVar(First, V, Dims) : nullptr;
    if (!BN || !overwrites(First, V))
      return nullptr;
    *Flag = F;
    return BN;
  }
  const CallExpr *BN = batchNormOfVar(Next, V, Dims);
  if (!BN)
    return nullptr;
  if (overwrites(Next, V))
    return BN;
  // Not overwritten there: no later statement of the block (nor of the function, when V lives
  // longer than the block) may read the conv's value.
  if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()); Fn && Fn->getBody() != Block)
    if (!Block->getSourceRange().fullyContains(V->getSourceRange()))
      return nullptr;
  for (auto J = std::next(It, 2); J != Block->body_end(); ++J)
    if (countRefs(V, *J))
      return nullptr;
  return BN;
}

/// The BatchNorm call that the value of forward call C feeds, directly or through a local (with
/// Flag: also only under `if (flag)`, batchNormThroughLocal).
const CallExpr *feedsBatchNorm(const Expr *C, int Dims, ASTContext &Ctx, const FieldDecl **Flag = nullptr) {
  if (const CallExpr *BN = directBatchNorm(C, Dims, Ctx))
    return BN;
  return batchNormThroughLocal(C, Dims, Ctx, Flag);
}

unsigned countRefs(const ValueDecl *D, const Stmt *S) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    N += R->getDecl() == D;
  for (const Stmt *C : S->children())
    N += countRefs(D, C);
  return N;
}

bool sameObject(const Expr *A, const Expr *B) {
  auto Holder = [](const Expr *E) -> const Expr * {
    E = E->IgnoreParenImpCasts();
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
      if (Op->getOperator() == OO_Arrow && Op->getNumArgs() == 1)
        return Op->getArg(0)->IgnoreParenImpCasts();
    return E;
  };
  A = Holder(A);
  B = Holder(B);
  if (const auto *RA = dyn_cast<DeclRefExpr>(A))
    if (const auto *RB = dyn_cast<DeclRefExpr>(B))
      return RA->getDecl() == RB->getDecl();
  const FieldDecl *FA = thisField(A), *FB = thisField(B);
  return FA && FA == FB;
}

} // namespace

bool ConvBiasBeforeBnCheck::inferenceOnlyProgram(ASTContext &Ctx) {
  // Training anywhere in the TU: backward() or Optimizer::step(), any optimizer call (zero_grad,
  // param_groups, options), Module::train(), torch::autograd::grad().
  const TUFacts &T = TUFacts::get(Ctx);
  if (ProgramFacts::get(Ctx).Trains || T.firstCallInNamespace("torch::optim").isValid() ||
      T.firstCall("torch::nn::Module::train").isValid() || T.firstCall("torch::autograd::grad").isValid())
    return false;
  // What an inference program shows: a module put in eval mode, or weights loaded into one.
  return T.firstCall("torch::nn::Module::eval").isValid() || T.firstCall("torch::load").isValid() ||
         T.firstCall("torch::nn::Module::load").isValid();
}

void ConvBiasBeforeBnCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  const Expr *Conv = nullptr; // the conv module as used
  int Dims = 0;
  std::string Where;

  if (const auto *Seq = Result.Nodes.getNodeAs<CXXConstructExpr>("seq")) {
    if (!inUserCode(Seq->getBeginLoc(), SM))
      return;
    for (unsigned I = 0; I + 1 < Seq->getNumArgs(); ++I) {
      const Expr *A = Seq->getArg(I), *B = Seq->getArg(I + 1);
      int D = bnDims(B);
      if (D && convDims(moduleImplOf(A->getType())) == D)
        checkPair(A, D, "in the Sequential the next module is", B, Ctx);
    }
    return;
  }
  if (const auto *Push = Result.Nodes.getNodeAs<CXXMemberCallExpr>("push")) {
    if (!inUserCode(Push->getBeginLoc(), SM) || Push->getNumArgs() == 0)
      return;
    const Expr *A = Push->getArg(Push->getNumArgs() - 1);
    if (!convDims(moduleImplOf(A->getType())))
      return;
    // The next statement of the block must push a BatchNorm onto the same Sequential.
    const HotCodeAnalysis &H = HotCodeAnalysis::get(Ctx);
    const Stmt *Cur = Push;
    const CompoundStmt *Block = nullptr;
    const Stmt *Own = nullptr;
    for (int I = 0; I < 4 && !Block; ++I) {
      const Stmt *P = H.parentOf(Cur);
      if (!P)
        return;
      Own = Cur;
      Block = dyn_cast<CompoundStmt>(P);
      Cur = P;
    }
    if (!Block || !Own)
      return;
    auto It = llvm::find(Block->body(), Own);
    if (It == Block->body_end() || std::next(It) == Block->body_end())
      return;
    const Stmt *Next = *std::next(It);
    if (const auto *W = dyn_cast<ExprWithCleanups>(Next))
      Next = W->getSubExpr();
    const auto *NextPush = dyn_cast<CXXMemberCallExpr>(Next);
    if (!NextPush || !NextPush->getMethodDecl() || NextPush->getMethodDecl()->getName() != "push_back" ||
        !isSequentialImpl(NextPush->getMethodDecl()->getParent()) || NextPush->getNumArgs() == 0 ||
        !sameObject(Push->getImplicitObjectArgument(), NextPush->getImplicitObjectArgument()))
      return;
    const Expr *B = NextPush->getArg(NextPush->getNumArgs() - 1);
    int D = bnDims(B);
    if (D && convDims(moduleImplOf(A->getType())) == D)
      checkPair(A, D, "the next push_back() adds", B, Ctx);
    return;
  }
  const auto *Apply = Result.Nodes.getNodeAs<CallExpr>("apply");
  if (!Apply || !inUserCode(Apply->getBeginLoc(), SM))
    return;
  if (!isa_and_nonnull<CXXMethodDecl>(HotCodeAnalysis::get(Ctx).enclosingFunction(Apply)))
    return;
  const Expr *M = moduleOfForwardCall(Apply);
  const FieldDecl *Field = M ? thisField(M) : nullptr;
  if (!Field)
    return;
  Dims = convDims(moduleImplOf(Field->getType()));
  const FieldDecl *Flag = nullptr;
  const CallExpr *BNCall = Dims ? feedsBatchNorm(Apply, Dims, Ctx, &Flag) : nullptr;
  if (!BNCall)
    return;
  // Every forward call of this convolution in the class must feed a BatchNorm: the bias is dead
  // only if no other path reads the conv's output.
  const auto *RD = dyn_cast<CXXRecordDecl>(Field->getParent());
  for (const CXXMethodDecl *MD : RD->methods()) {
    const FunctionDecl *Def = nullptr;
    if (!MD->hasBody(Def) || !Def)
      continue;
    bool Ok = true;
    forEachCall(Def->getBody(), [&](const CallExpr *C) {
      const Expr *CM = moduleOfForwardCall(C);
      // (Under a flag, every use under the same one: where it is unset, the bias is the output's.)
      const FieldDecl *Under = nullptr;
      if (CM && thisField(CM) == Field && (!feedsBatchNorm(C, Dims, Ctx, &Under) || Under != Flag))
        Ok = false;
    });
    if (!Ok)
      return;
  }
  Conv = M;
  checkPair(Conv, Dims, Flag ? "its output goes into" : "its output goes straight into", moduleOfForwardCall(BNCall),
            Ctx, Apply, Flag);
}

void ConvBiasBeforeBnCheck::checkPair(const Expr *Conv, int Dims, llvm::StringRef How, const Expr *BN, ASTContext &Ctx,
                                      const Expr *ReportAt, const FieldDecl *Flag) {
  // A local conv module used anywhere else keeps its bias.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(stripCopies(Conv)))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (const auto *Fn = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod()))
        if (countRefs(VD, Fn->getBody()) != 1)
          return;
  // In an inference-only program BatchNorm normalises with its running statistics: it does not
  // cancel the bias (the loaded weights hold both), and removing the bias would break the loading.
  if (inferenceOnlyProgram(Ctx))
    return;
  ModuleOrigin O = resolveModuleOption(Conv, "bias", Ctx);
  if (!O.Impl || convDims(O.Impl) != Dims || !O.Option.isConstant(1))
    return;
  // The bias could be turned off in code that could not be typed on the way from the options.
  if (evidenceRestsOnErrors(Ctx, {Conv, O.Construct, O.OptionsArg, BN, ReportAt}))
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  // Reported at the conv's construction, where the fix goes, with a note at the use that feeds
  // the BatchNorm; at the use when the construction is not the user's to edit, or sits in a helper
  // that other callers share (HelperDepth > 0: the fix, if any, goes to this caller's argument).
  SourceLocation UseLoc = (ReportAt ? ReportAt : Conv)->getBeginLoc();
  SourceLocation Loc = UseLoc;
  if (O.Construct && O.HelperDepth == 0 && O.Construct->getBeginLoc().isValid() &&
      !O.Construct->getBeginLoc().isMacroID() && inUserCode(O.Construct->getBeginLoc(), SM))
    Loc = O.Construct->getBeginLoc();
  if (Loc.isMacroID() || !inUserCode(Loc, SM))
    return;
  if (!Reported.insert(SM.getFileLoc(Loc).getRawEncoding()).second)
    return; // one finding per construction, whichever use reaches it first
  std::string D = std::to_string(Dims);
  std::string HowText = How.str();
  if (Loc != UseLoc && StringRef(HowText).starts_with("its output"))
    HowText.insert(strlen("its output"), " at line " + std::to_string(SM.getSpellingLineNumber(UseLoc)));
  std::string BNLine = std::to_string(SM.getSpellingLineNumber(BN->getBeginLoc()));
  if (Flag) {
    // Cancelled only where the flag is set: the bias stays where no BatchNorm follows. No fix-it
    // (the flag's value must reach the conv's options, which the constructor may not have).
    std::string Name = Flag->getNameAsString();
    report(Loc, "Conv" + D + "d with bias feeding BatchNorm" + D + "d when '" + Name + "' is set: " + HowText +
                    " BatchNorm" + D + "d (line " + BNLine + ") under `if (" + Name +
                    ")`, which subtracts the per-channel mean and cancels the bias; there the bias costs a kernel, "
                    "its gradient and optimizer state for nothing: build the conv with .bias(!" + Name +
                    ") from the value that sets '" + Name + "' (the bias is needed only where no BatchNorm follows)");
    if (Loc != UseLoc)
      diag(UseLoc, "the convolution's output feeds BatchNorm" + D + "d here when '" + Name + "' is set",
           DiagnosticIDs::Note);
    return;
  }
  std::string Msg = "Conv" + D + "d with bias feeding BatchNorm" + D + "d: " + HowText + " BatchNorm" + D + "d (line " +
                    BNLine + "), which subtracts the per-channel mean and cancels the bias; the bias costs a kernel, "
                    "its gradient and optimizer state for nothing: build the conv with .bias(false)";
  std::vector<FixItHint> Fixes;
  const OptionValue &V = O.Option;
  if (O.HelperDepth == 0) {
    const Expr *Opts = O.OptionsArg ? stripCopies(O.OptionsArg) : nullptr;
    if (O.OptionsArg) {
      if (isa<DeclRefExpr>(Opts))
        ; // an options variable may build other convs too: no fix
      else if (V.K == OptionValue::Set && V.Source && V.HelperDepth == 0)
        replaceExpr(V.Source, "false", Ctx, Fixes);
      else if (V.K == OptionValue::Set && V.DefaultedCall)
        insertDefaultedArgument(V.DefaultedCall, V.DefaultedParam, "false", Ctx, Fixes);
      else if (V.K == OptionValue::Set && V.Source)
        replaceExpr(V.Source, "false", Ctx, Fixes);
      else // a later .bias(false) overrides whatever the chain or helper set
        appendMemberCall(O.OptionsArg->IgnoreImplicit(), "bias(false)", Ctx, Fixes);
    } else if (O.Construct) {
      std::vector<const Expr *> Args(O.Construct->arg_begin(), O.Construct->arg_end());
      wrapArguments(Args, "torch::nn::Conv" + D + "dOptions(", ").bias(false)", Ctx, Fixes);
    }
  } else if (V.K == OptionValue::Set && V.Source) {
    replaceExpr(V.Source, "false", Ctx, Fixes);
  } else if (V.K == OptionValue::Set && V.DefaultedCall) {
    insertDefaultedArgument(V.DefaultedCall, V.DefaultedParam, "false", Ctx, Fixes);
  }
  {
    auto Diag = report(Loc, Msg);
    for (const FixItHint &F : Fixes)
      Diag << F;
  }
  if (Loc != UseLoc)
    diag(UseLoc, "the convolution's output feeds BatchNorm" + D + "d here", DiagnosticIDs::Note);
}

} // namespace torchlint
