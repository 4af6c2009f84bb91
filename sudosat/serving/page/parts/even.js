import {mark} from "./shapes.js";

export default mark({word: "even", label: "Even", shape: "square"});
