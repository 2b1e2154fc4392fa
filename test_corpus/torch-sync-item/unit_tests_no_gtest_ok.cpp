// torch-sync-item: unit-test bodies recognised without the test framework's headers (a lint job
// without gtest or Catch2 installed sees what their macros expand to, here written out): a class
// `Suite_Name_Test` with TestBody(), Catch2's generated test function names, a function declared
// by a macro named like a test framework's.
#include <torch/torch.h>

// What `TEST(Sync, ItemPerStep)` expands to, minus the registration.
class Sync_ItemPerStep_Test {
public:
  void TestBody();
};

void Sync_ItemPerStep_Test::TestBody() {
  auto w = torch::randn({4}, torch::kCUDA);
  float acc = 0;
  for (int i = 0; i < 3; ++i)
    acc += (w * i).sum().item<float>();
  (void)acc;
}

// Catch2 v2 and v3 name the function of `TEST_CASE("...")` like this.
static void ____C_A_T_C_H____T_E_S_T____0() {
  auto w = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < 3; ++i)
    (void)w.sum().item<float>();
}
static void CATCH2_INTERNAL_TEST_1() {
  auto w = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < 3; ++i)
    (void)w.max().item<float>();
}

// Any function a test macro declares (TEST, TEST_CASE, SCENARIO, BOOST_AUTO_TEST_CASE, ...), here
// a project's own TEST_CASE.
#define TEST_CASE(description) static void local_case_runner()
TEST_CASE("item in a test loop") {
  auto w = torch::randn({4}, torch::kCUDA);
  for (int i = 0; i < 3; ++i)
    (void)w.min().item<float>();
}

int main() {
  Sync_ItemPerStep_Test().TestBody();
  ____C_A_T_C_H____T_E_S_T____0();
  CATCH2_INTERNAL_TEST_1();
  local_case_runner();
}
