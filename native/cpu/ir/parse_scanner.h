// A character cursor over MLIR text for the StableHLO parser: skips whitespace and `//` comments,
// reads MLIR's lexical pieces (identifiers, %values, @symbols, strings, numbers) and raises
// CpuError("line N: <op>: …") on anything unexpected. MLIR's tokens depend on context (`2x3xf32`),
// so the parser asks for the piece it expects instead of pre-tokenising.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/error.h"

namespace tpjrt::cpu {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void skipSpace();
  bool atEnd();
  char peek();                         // next significant char, '\0' at the end
  char peekAfter(size_t n);            // char n places after the next significant one
  bool consume(char c);
  bool consume(std::string_view punct);
  void expect(char c);
  void expect(std::string_view punct);
  bool peekKeyword(std::string_view word);     // the next identifier is exactly `word`
  bool consumeKeyword(std::string_view word);
  void expectKeyword(std::string_view word);
  bool peekIdentifier();
  std::string identifier();            // [A-Za-z_][A-Za-z0-9_$.]*
  std::string valueName();             // after '%': [A-Za-z0-9_$.-]+ (the '%' is consumed here)
  std::string symbolName();            // '@name' or '@"name"'
  std::string stringLiteral();
  std::string numberToken();           // -?digits[.digits][e±digits] or -?0xHEX, or inf/nan
  int64_t integer();                   // a decimal or hex integer that fits int64
  void skipBalanced(char open, char close);  // from just after `open` to just after its `close`
  void skipLocation();                 // an optional trailing `loc(...)`

  size_t pos() const { return pos_; }
  void setPos(size_t p) { pos_ = p; }
  std::string_view text() const { return text_; }
  int line();

  // Errors name the line of the cursor and the op being parsed (context).
  [[noreturn]] void error(const std::string& message);
  [[noreturn]] void errorAt(int line, const std::string& message, ErrorCode code = ErrorCode::InvalidArgument);
  std::string context;

  // Nesting guard for every recursive rule.
  class Depth {
   public:
    explicit Depth(Scanner& s);
    ~Depth() { --s_.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;

   private:
    Scanner& s_;
  };

 private:
  std::string describeNext();

  std::string_view text_;
  size_t pos_ = 0;
  size_t linePos_ = 0;
  int line_ = 1;
  int depth_ = 0;
};

}  // namespace tpjrt::cpu
