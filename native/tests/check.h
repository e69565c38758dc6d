// A very small test harness for the native ctest executables: TEST cases register themselves, CHECK
// records a failure with file and line and keeps going, main() runs every case and prints a summary.
#pragma once

#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace tpjrt::test {

struct Case {
  const char* name;
  std::function<void()> body;
};

inline std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}
inline int& failures() {
  static int n = 0;
  return n;
}
struct Register {
  Register(const char* name, std::function<void()> body) { cases().push_back({name, std::move(body)}); }
};

inline void report(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "  %s:%d: %s\n", file, line, what.c_str());
  ++failures();
}

inline int runAll() {
  int failedCases = 0;
  for (const auto& c : cases()) {
    int before = failures();
    try {
      c.body();
    } catch (const std::exception& e) {
      report(c.name, 0, std::string("uncaught exception: ") + e.what());
    }
    bool ok = failures() == before;
    if (!ok) ++failedCases;
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", c.name);
  }
  std::printf("%zu passed, %d failed\n", cases().size() - failedCases, failedCases);
  return failedCases == 0 ? 0 : 1;
}

}  // namespace tpjrt::test

#define TPJRT_CAT2(a, b) a##b
#define TPJRT_CAT(a, b) TPJRT_CAT2(a, b)
#define TEST(name)                                                                     \
  static void name();                                                                  \
  static ::tpjrt::test::Register TPJRT_CAT(register_, name)(#name, name);              \
  static void name()

#define CHECK(cond) \
  do { if (!(cond)) ::tpjrt::test::report(__FILE__, __LINE__, "CHECK(" #cond ")"); } while (0)

#define CHECK_EQ(a, b)                                                                   \
  do {                                                                                   \
    auto&& va_ = (a); auto&& vb_ = (b);                                                  \
    if (!(va_ == vb_)) {                                                                 \
      std::ostringstream os_; os_ << #a " == " #b " (" << va_ << " vs " << vb_ << ")";  \
      ::tpjrt::test::report(__FILE__, __LINE__, os_.str());                              \
    }                                                                                    \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                            \
  do {                                                                                   \
    double va_ = (a), vb_ = (b);                                                         \
    if (!(std::fabs(va_ - vb_) <= (tol)) && !(std::isnan(va_) && std::isnan(vb_))) {    \
      std::ostringstream os_; os_ << #a " ~ " #b " (" << va_ << " vs " << vb_ << ")";   \
      ::tpjrt::test::report(__FILE__, __LINE__, os_.str());                              \
    }                                                                                    \
  } while (0)

// Expects `stmt` to throw an exception whose what() contains `fragment`.
#define CHECK_THROWS(stmt, fragment)                                                     \
  do {                                                                                   \
    bool threw_ = false;                                                                 \
    try { stmt; } catch (const std::exception& e_) {                                     \
      threw_ = true;                                                                     \
      if (std::string(e_.what()).find(fragment) == std::string::npos)                   \
        ::tpjrt::test::report(__FILE__, __LINE__, std::string("message lacks '") +       \
                              (fragment) + "': " + e_.what());                           \
    }                                                                                    \
    if (!threw_) ::tpjrt::test::report(__FILE__, __LINE__, "expected a throw: " #stmt);  \
  } while (0)

#define TEST_MAIN() int main() { return ::tpjrt::test::runAll(); }
