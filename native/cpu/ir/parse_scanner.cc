#include "ir/parse_scanner.h"

#include <cctype>
#include <limits>

#include "base/error.h"

namespace tpjrt::cpu {
namespace {

constexpr int kMaxDepth = 200;

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

Scanner::Depth::Depth(Scanner& s) : s_(s) {
  if (s_.depth_ >= kMaxDepth) s_.error("nesting is deeper than " + std::to_string(kMaxDepth) + " levels");
  ++s_.depth_;
}

void Scanner::skipSpace() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

bool Scanner::atEnd() {
  skipSpace();
  return pos_ >= text_.size();
}

char Scanner::peek() {
  skipSpace();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

char Scanner::peekAfter(size_t n) {
  skipSpace();
  return pos_ + n < text_.size() ? text_[pos_ + n] : '\0';
}

bool Scanner::consume(char c) {
  if (peek() != c || atEnd()) return false;
  ++pos_;
  return true;
}

bool Scanner::consume(std::string_view punct) {
  skipSpace();
  if (text_.substr(pos_, punct.size()) != punct) return false;
  pos_ += punct.size();
  return true;
}

void Scanner::expect(char c) {
  if (!consume(c)) error(std::string("expected '") + c + "' but found " + describeNext());
}

void Scanner::expect(std::string_view punct) {
  if (!consume(punct)) error("expected '" + std::string(punct) + "' but found " + describeNext());
}

bool Scanner::peekIdentifier() { return isIdentStart(peek()); }

bool Scanner::peekKeyword(std::string_view word) {
  skipSpace();
  if (text_.substr(pos_, word.size()) != word) return false;
  size_t end = pos_ + word.size();
  return end >= text_.size() || !isIdentChar(text_[end]);
}

bool Scanner::consumeKeyword(std::string_view word) {
  if (!peekKeyword(word)) return false;
  pos_ += word.size();
  return true;
}

void Scanner::expectKeyword(std::string_view word) {
  if (!consumeKeyword(word)) error("expected '" + std::string(word) + "' but found " + describeNext());
}

std::string Scanner::identifier() {
  if (!peekIdentifier()) error("expected an identifier but found " + describeNext());
  size_t start = pos_;
  while (pos_ < text_.size() && isIdentChar(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

std::string Scanner::valueName() {
  expect('%');
  size_t start = pos_;
  while (pos_ < text_.size() &&
         (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '$' ||
          text_[pos_] == '.' || text_[pos_] == '-'))
    ++pos_;
  if (pos_ == start) error("expected a value name after '%'");
  return std::string(text_.substr(start, pos_ - start));
}

std::string Scanner::symbolName() {
  expect('@');
  if (pos_ < text_.size() && text_[pos_] == '"') return stringLiteral();
  size_t start = pos_;
  while (pos_ < text_.size() && (isIdentChar(text_[pos_]) || text_[pos_] == '-')) ++pos_;
  if (pos_ == start) error("expected a symbol name after '@'");
  return std::string(text_.substr(start, pos_ - start));
}

std::string Scanner::stringLiteral() {
  if (peek() != '"') error("expected a string but found " + describeNext());
  ++pos_;
  std::string out;
  while (true) {
    if (pos_ >= text_.size()) error("unterminated string");
    char c = text_[pos_++];
    if (c == '"') break;
    if (c == '\n') error("unterminated string");
    if (c != '\\') {
      out += c;
      continue;
    }
    if (pos_ >= text_.size()) error("unterminated string");
    char e = text_[pos_++];
    if (e == 'n') out += '\n';
    else if (e == 't') out += '\t';
    else if (e == '"' || e == '\\') out += e;
    else if (isHexDigit(e) && pos_ < text_.size() && isHexDigit(text_[pos_])) {
      out += static_cast<char>(std::stoi(std::string{e, text_[pos_]}, nullptr, 16));
      ++pos_;
    } else {
      error(std::string("bad escape '\\") + e + "' in string");
    }
  }
  return out;
}

std::string Scanner::numberToken() {
  skipSpace();
  size_t start = pos_;
  if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
  if (text_.substr(pos_, 3) == "inf" || text_.substr(pos_, 3) == "nan") {
    pos_ += 3;
  } else if (text_.substr(pos_, 2) == "0x" && pos_ + 2 < text_.size() && isHexDigit(text_[pos_ + 2])) {
    pos_ += 2;
    while (pos_ < text_.size() && isHexDigit(text_[pos_])) ++pos_;
  } else {
    if (pos_ >= text_.size() || !isDigit(text_[pos_])) {
      pos_ = start;
      error("expected a number but found " + describeNext());
    }
    while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t e = pos_ + 1;
      if (e < text_.size() && (text_[e] == '+' || text_[e] == '-')) ++e;
      if (e < text_.size() && isDigit(text_[e])) {
        pos_ = e;
        while (pos_ < text_.size() && isDigit(text_[pos_])) ++pos_;
      }
    }
  }
  return std::string(text_.substr(start, pos_ - start));
}

int64_t Scanner::integer() {
  std::string tok = numberToken();
  bool neg = !tok.empty() && tok[0] == '-';
  std::string_view digits = tok;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  int base = 10;
  if (digits.substr(0, 2) == "0x") {
    base = 16;
    digits.remove_prefix(2);
  }
  if (digits.empty() || digits.find_first_of(".eEn") != std::string_view::npos)
    error("expected an integer but found '" + tok + "'");
  uint64_t mag = 0;
  for (char c : digits) {
    uint64_t d = isDigit(c) ? c - '0' : (std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
    if (mag > (std::numeric_limits<uint64_t>::max() - d) / base) error("integer '" + tok + "' is too large");
    mag = mag * base + d;
  }
  if (!neg && mag > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    error("integer '" + tok + "' is too large");
  if (neg && mag > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1)
    error("integer '" + tok + "' is too large");
  return neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
}

void Scanner::skipBalanced(char open, char close) {
  int level = 1;
  while (level > 0) {
    if (pos_ >= text_.size()) error(std::string("unbalanced '") + open + "': input ends before '" + close + "'");
    char c = text_[pos_];
    if (c == '"') {
      stringLiteral();
      continue;
    }
    ++pos_;
    if (c == '-' && close == '>' && pos_ < text_.size() && text_[pos_] == '>') {
      ++pos_;  // an arrow `->` inside `<…>`
      continue;
    }
    if (c == open) ++level;
    else if (c == close) --level;
  }
}

void Scanner::skipLocation() {
  size_t save = pos_;
  if (consumeKeyword("loc")) {
    if (!consume('(')) {
      pos_ = save;
      return;
    }
    skipBalanced('(', ')');
  }
}

int Scanner::line() {
  size_t target = pos_ < text_.size() ? pos_ : text_.size();
  while (linePos_ < target) {
    if (text_[linePos_] == '\n') ++line_;
    ++linePos_;
  }
  while (linePos_ > target) {
    --linePos_;
    if (text_[linePos_] == '\n') --line_;
  }
  return line_;
}

std::string Scanner::describeNext() {
  skipSpace();
  if (pos_ >= text_.size()) return "the end of the input";
  size_t end = pos_;
  while (end < text_.size() && end - pos_ < 20 && text_[end] != '\n') ++end;
  std::string piece(text_.substr(pos_, end - pos_));
  for (char& c : piece)
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) c = '?';
  return "'" + piece + "'";
}

void Scanner::error(const std::string& message) { errorAt(line(), message); }

void Scanner::errorAt(int line, const std::string& message, ErrorCode code) {
  std::string prefix = "line " + std::to_string(line) + ": ";
  if (!context.empty()) prefix += context + ": ";
  fail(prefix + message, code);
}

}  // namespace tpjrt::cpu
