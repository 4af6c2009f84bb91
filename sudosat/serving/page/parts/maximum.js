import {mark} from "./shapes.js";

export default mark({word: "maximum", label: "Maximum", shape: "up"});
