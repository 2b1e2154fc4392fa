// The parts of the Language Server Protocol 3.17 that `torchlint lsp` speaks: JSON-RPC 2.0 messages
// framed by Content-Length headers on stdio, file URIs, and positions (UTF-16 code units, the LSP
// default, or UTF-8 when the client offers it) computed from the text the client sent.
#pragma once
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

namespace torchlint {
namespace lsp {

/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

enum class ReadStatus { Ok, Eof, BadHeader };

/// Reads one framed message from In into Body. BadHeader: the header block had no usable
/// Content-Length (Err says why); the caller answers with an error and reads on.
ReadStatus readMessage(std::FILE *In, std::string &Body, std::string &Err);

/// Writes framed messages to Out; safe to call from several threads.
class Transport {
public:
  explicit Transport(std::FILE *Out) : Out(Out) {}
  void send(const llvm::json::Value &Message);
  void reply(const llvm::json::Value &Id, llvm::json::Value Result);
  void replyError(const llvm::json::Value &Id, int Code, llvm::StringRef Message);
  void notify(llvm::StringRef Method, llvm::json::Value Params);

private:
  std::FILE *Out;
  std::mutex M;
};

/// file:///a/b%20c.cpp -> /a/b c.cpp; std::nullopt (with Err) for other schemes or bad escapes.
std::optional<std::string> uriToPath(llvm::StringRef Uri, std::string &Err);
/// /a/b c.cpp -> file:///a/b%20c.cpp
std::string pathToUri(llvm::StringRef Path);

enum class Encoding { UTF16, UTF8 };

/// The LSP position of byte Offset in Text (clamped to the text).
llvm::json::Object positionAt(llvm::StringRef Text, size_t Offset, Encoding Enc);
/// The byte offset of an LSP position in Text (clamped to the line and the text).
size_t offsetAt(llvm::StringRef Text, int64_t Line, int64_t Character, Encoding Enc);
/// A range object from two byte offsets.
llvm::json::Object rangeOf(llvm::StringRef Text, size_t Begin, size_t End, Encoding Enc);

} // namespace lsp
} // namespace torchlint
