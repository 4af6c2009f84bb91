import {line} from "./shapes.js";

export default line({word: "zipper", label: "Zipper line", colour: "#b39ddb", width: 0.22});
