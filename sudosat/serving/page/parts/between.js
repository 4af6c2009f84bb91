import {line} from "./shapes.js";

export default line({word: "between", label: "Between line", colour: "#999", width: 0.1, least: 3, ends: true});
