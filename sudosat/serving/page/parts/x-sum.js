import {outside} from "./shapes.js";

export default outside({word: "x-sum", label: "X-sum"});
