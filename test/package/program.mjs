// program.cjs's checks through the package's ESM entry (`import`), for the ESM scratch app.
import * as torch from "torch-pjrt";
import check from "./program.cjs";

console.log(JSON.stringify(check(torch)));
