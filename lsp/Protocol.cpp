#include "lsp/Protocol.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace torchlint {
namespace lsp {

ReadStatus readMessage(std::FILE *In, std::string &Body, std::string &Err) {
  size_t Length = 0;
  bool HaveLength = false; // (not std::optional: GCC 12 warns it may be used uninitialized)
  bool SawHeader = false;
  std::string Line;
  for (;;) {
    Line.clear();
    int C;
    while ((C = std::fgetc(In)) != EOF && C != '\n')
      Line.push_back(static_cast<char>(C));
    if (C == EOF && Line.empty())
      return ReadStatus::Eof;
    StringRef L = StringRef(Line).rtrim("\r");
    if (L.empty()) {
      if (!SawHeader)
        continue; // stray blank line between messages
      break;
    }
    SawHeader = true;
    auto [Name, Value] = L.split(':');
    if (Name.trim().equals_insensitive("Content-Length")) {
      size_t N;
      if (Value.trim().getAsInteger(10, N)) {
        Err = "bad Content-Length header '" + L.str() + "'";
        HaveLength = false;
        continue;
      }
      Length = N;
      HaveLength = true;
    }
    if (C == EOF)
      return ReadStatus::Eof;
  }
  if (!HaveLength) {
    if (Err.empty())
      Err = "message without a Content-Length header";
    return ReadStatus::BadHeader;
  }
  if (Length > (size_t(1) << 30)) {
    Err = "Content-Length " + std::to_string(Length) + " is too large";
    return ReadStatus::BadHeader;
  }
  Body.resize(Length);
  size_t Got = Length ? std::fread(&Body[0], 1, Length, In) : 0;
  if (Got != Length)
    return ReadStatus::Eof;
  return ReadStatus::Ok;
}

void Transport::send(const json::Value &Message) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << Message;
  OS.flush();
  std::lock_guard<std::mutex> L(M);
  std::fprintf(Out, "Content-Length: %zu\r\n\r\n", Text.size());
  std::fwrite(Text.data(), 1, Text.size(), Out);
  std::fflush(Out);
}

void Transport::reply(const json::Value &Id, json::Value Result) {
  send(json::Object{{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Transport::replyError(const json::Value &Id, int Code, StringRef Message) {
  send(json::Object{
      {"jsonrpc", "2.0"}, {"id", Id}, {"error", json::Object{{"code", Code}, {"message", Message.str()}}}});
}

void Transport::notify(StringRef Method, json::Value Params) {
  send(json::Object{{"jsonrpc", "2.0"}, {"method", Method.str()}, {"params", std::move(Params)}});
}

std::optional<std::string> uriToPath(StringRef Uri, std::string &Err) {
  StringRef Rest = Uri;
  if (!Rest.consume_front("file://")) {
    Err = "not a file URI: '" + Uri.str() + "'";
    return std::nullopt;
  }
  // file://host/path: only the local host (empty or "localhost").
  if (!Rest.starts_with("/")) {
    if (!Rest.consume_front("localhost")) {
      Err = "file URI with a remote host: '" + Uri.str() + "'";
      return std::nullopt;
    }
  }
  std::string Path;
  for (size_t I = 0; I < Rest.size(); ++I) {
    char C = Rest[I];
    if (C == '%') {
      unsigned V;
      if (I + 2 >= Rest.size() || Rest.substr(I + 1, 2).getAsInteger(16, V)) {
        Err = "bad escape in URI '" + Uri.str() + "'";
        return std::nullopt;
      }
      Path.push_back(static_cast<char>(V));
      I += 2;
    } else {
      Path.push_back(C);
    }
  }
  if (Path.empty() || Path[0] != '/') {
    Err = "file URI without an absolute path: '" + Uri.str() + "'";
    return std::nullopt;
  }
  SmallString<256> P(Path);
  sys::path::remove_dots(P, true);
  return std::string(P);
}

std::string pathToUri(StringRef Path) {
  std::string Out = "file://";
  for (unsigned char C : Path) {
    if (isAlnum(C) || StringRef("/-_.~").contains(C))
      Out.push_back(C);
    else {
      Out.push_back('%');
      Out.push_back(hexdigit(C >> 4, /*LowerCase=*/false));
      Out.push_back(hexdigit(C & 15, false));
    }
  }
  return Out;
}

namespace {

/// UTF-16 code units of the UTF-8 text S (invalid bytes count one each).
size_t utf16Length(StringRef S) {
  size_t N = 0;
  for (size_t I = 0; I < S.size();) {
    unsigned char C = S[I];
    unsigned Len = C < 0x80 ? 1 : (C >> 5) == 0x6 ? 2 : (C >> 4) == 0xE ? 3 : (C >> 3) == 0x1E ? 4 : 1;
    if (I + Len > S.size())
      Len = 1;
    N += Len == 4 ? 2 : 1;
    I += Len;
  }
  return N;
}

} // namespace

json::Object positionAt(StringRef Text, size_t Offset, Encoding Enc) {
  Offset = std::min(Offset, Text.size());
  StringRef Before = Text.substr(0, Offset);
  int64_t Line = Before.count('\n');
  size_t LineStart = Before.rfind('\n');
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  StringRef InLine = Before.substr(LineStart);
  int64_t Char =
      Enc == Encoding::UTF8 ? static_cast<int64_t>(InLine.size()) : static_cast<int64_t>(utf16Length(InLine));
  return json::Object{{"line", Line}, {"character", Char}};
}

size_t offsetAt(StringRef Text, int64_t Line, int64_t Character, Encoding Enc) {
  size_t Pos = 0;
  for (int64_t L = 0; L < Line; ++L) {
    size_t NL = Text.find('\n', Pos);
    if (NL == StringRef::npos)
      return Text.size();
    Pos = NL + 1;
  }
  size_t End = Text.find('\n', Pos);
  if (End == StringRef::npos)
    End = Text.size();
  if (Character <= 0)
    return Pos;
  if (Enc == Encoding::UTF8)
    return std::min(Pos + static_cast<size_t>(Character), End);
  int64_t Units = 0;
  size_t I = Pos;
  while (I < End && Units < Character) {
    unsigned char C = Text[I];
    unsigned Len = C < 0x80 ? 1 : (C >> 5) == 0x6 ? 2 : (C >> 4) == 0xE ? 3 : (C >> 3) == 0x1E ? 4 : 1;
    if (I + Len > End)
      Len = 1;
    Units += Len == 4 ? 2 : 1;
    I += Len;
  }
  return I;
}

json::Object rangeOf(StringRef Text, size_t Begin, size_t End, Encoding Enc) {
  return json::Object{{"start", positionAt(Text, Begin, Enc)}, {"end", positionAt(Text, End, Enc)}};
}

} // namespace lsp
} // namespace torchlint
